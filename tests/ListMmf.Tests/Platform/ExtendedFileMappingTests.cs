using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// Readers that open a file while another handle extends it in small steps, faster than any writer grows. On Linux
/// a map of an explicit length races such growth; under Wine, which extends a file by writing a byte past the new
/// end and truncating back, a reader that maps the length of that instant is refused at once without a retry.
/// </summary>
public sealed class ExtendedFileMappingTests : IDisposable
{
    private const int Items = 100;
    private const int Opens = 2_000;
    private const long MaximumLength = 64L << 20;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public async Task ReadersOpenedWhileTheFileIsExtendedOneItemAtATimeSeeEveryItem(MappingBackend backend)
    {
        string path = _directory.File("extended.bin");
        using (var list = new ListMmf<long>(path))
        {
            for (long i = 0; i < Items; i++)
            {
                list.Add(i);
            }
        }

        using var extending = new ManualResetEventSlim();
        using var done = new CancellationTokenSource();
        Task extender = Task.Factory.StartNew(() => ExtendUntil(path, extending, done.Token), TaskCreationOptions.LongRunning);
        try
        {
            Assert.True(extending.Wait(TimeSpan.FromMinutes(5)), "the file was never extended");
            for (int open = 0; open < Opens; open++)
            {
                using var reader = new ListMmf<long>(path, FileAccess.Read, new ListMmfOptions { Backend = backend });
                Assert.Equal(Items, reader.Count);
                Assert.Equal(Items - 1, reader[Items - 1]);
            }
        }
        finally
        {
            done.Cancel();
        }

        await extender;
    }

    /// <summary>Extends the file by one item at a time, as a writer's growth does, until cancelled.</summary>
    private static void ExtendUntil(string path, ManualResetEventSlim extending, CancellationToken done)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete);
        for (long length = file.Length + sizeof(long); !done.IsCancellationRequested && length <= MaximumLength; length += sizeof(long))
        {
            file.SetLength(length);
            extending.Set();
        }
    }
}
