using System.IO;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// A prefaulting writer's background prefault never outlives the mapping it faults in: trimming and closing take it
/// over first (so does growth, which on these backends never moves a mapping this small: the Posix reservation is at
/// least 1 GiB, and the MemoryMappedFile backend keeps its old views). Either racing it would fault in unmapped
/// memory and kill the test process, so this runs many short lives of a writer, each trimmed and closed just after an
/// append queued a prefault. The race is narrow (the prefault's touch loop): leaving out the take-over before closing
/// did not make it fail in three runs, so this shows that the lives keep every item, not that the order is kept.
/// </summary>
public sealed class BackgroundPrefaultTests
{
    [Theory]
    [MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AWriterThatGrowsTrimsAndClosesAsItsNextWindowIsFaultedInKeepsEveryItem(MappingBackend backend)
    {
        using var directory = new TempDirectory();
        for (int life = 0; life < 200; life++)
        {
            string path = directory.File($"life-{life}.mmf");
            var options = Backends.Options(backend, initialCapacity: 1_000) with { PrefaultAhead = true };
            // Just past a 2 MiB boundary of the file, where an append has just queued the next window's prefault.
            long items = (262_144 * (1 + (life % 4))) + (life % 3);
            using (var writer = new ListMmf<long>(path, FileAccess.ReadWrite, options))
            {
                for (long i = 0; i < items; i++)
                {
                    writer.Add(i);
                }

                writer.TrimExcess();
                for (long i = items; i < items + life; i++)
                {
                    writer.Add(i);
                }
            }

            using var reader = new ListMmf<long>(path, FileAccess.Read);
            Assert.Equal(items + life, reader.Count);
            Assert.Equal(items + life - 1, reader[reader.Count - 1]);
            Assert.Equal(items / 2, reader[items / 2]);
        }
    }
}
