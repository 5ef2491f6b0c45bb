using System;
using System.IO;
using System.Linq;
using System.Threading;
using ListMmf.Storage;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.Hostile;

/// <summary>
/// A replacement (TruncateBeginning, widening) that fails at a step: before the rename the list is unchanged; after
/// it the list has either moved to the new file or refuses every call, and no successful write misses the file at
/// the path. Failures are injected through <see cref="FileReplacement.BeforeStep"/> (this thread only) in-process,
/// and by strace in a child process.
/// </summary>
public sealed class ReplacementFaultTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose()
    {
        FileReplacement.BeforeStep = null;
        _directory.Dispose();
    }

    private string FilePath => _directory.File("list.bin");

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void AFailedRenameLeavesTheListAsItWasAndItsReadersUnmoved(MappingBackend backend)
    {
        using var writer = WriterWith(1_000, backend);
        using var reader = new ListMmf<long>(FilePath, FileAccess.Read, Backends.Options(backend));
        FailAt(ReplacementStep.Rename);

        var exception = Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(100));

        Assert.Contains("The file is unchanged", exception.Message, StringComparison.Ordinal);
        FileReplacement.BeforeStep = null;
        writer.Add(1_000);
        writer.Flush();
        Assert.Equal(1_001, ListMmfFileInfo.Read(FilePath).Count);
        Assert.Equal(0, MarkOnDisk());
        Assert.Equal(1_001, reader.Count);
        Assert.Equal(0, reader.Generation);
        Assert.Equal(["list.bin", "list.bin.writer-lock"], FileNames());
    }

    [PathIdentityFact]
    public void ARenameCarriedOutButReportedFailedFinishesTheReplacementInsteadOfClaimingNothingChanged()
    {
        using var writer = WriterWith(1_000, MappingBackend.Default);
        string target = StoragePlatform.Current.CanonicalPath(FilePath);
        FileReplacement.BeforeStep = step =>
        {
            if (step == ReplacementStep.Rename)
            {
                // What a network file system does when the reply to a rename is lost: the rename happened, the call failed.
                File.Move(DurableFile.TemporaryFor(target), target, overwrite: true);
                throw new IOException("Input/output error");
            }
        };

        writer.TruncateBeginning(100);
        FileReplacement.BeforeStep = null;
        writer.AddRange(Enumerable.Range(1_000, 50).Select(i => (long)i).ToArray());
        writer.Flush();

        writer.Dispose();
        using var next = new ListMmf<long>(FilePath);
        Assert.Equal(Enumerable.Range(100, 950).Select(i => (long)i), next.ToArray());
    }

    [PathIdentityFact]
    public void ARenameThatLeavesNeitherFileAtThePathFaultsTheListInsteadOfClaimingNothingChanged()
    {
        var writer = WriterWith(1_000, MappingBackend.Default);
        string target = StoragePlatform.Current.CanonicalPath(FilePath);
        FileReplacement.BeforeStep = step =>
        {
            if (step == ReplacementStep.Rename)
            {
                File.Move(target, _directory.File("elsewhere.bin"));
                throw new IOException("Input/output error");
            }
        };

        var exception = Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(100));

        Assert.Contains("holds neither the old file nor the new one", exception.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("unchanged", exception.Message, StringComparison.Ordinal);
        Assert.Contains("refuses every later call", Assert.Throws<ListMmfException>(() => writer.Add(1)).Message, StringComparison.Ordinal);
        writer.Dispose();
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ANewFileThatCannotBeOpenedAfterTheRenameLeavesTheListRefusingEveryCall(MappingBackend backend)
    {
        var writer = WriterWith(1_000, backend);
        FailAt(ReplacementStep.OpenNew);

        var exception = Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(100));

        Assert.Contains("holding the 900 items after the first 100, is at the path", exception.Message, StringComparison.Ordinal);
        Assert.All(
            new Action[]
            {
                () => writer.Add(1),
                () => writer.AddRange([1, 2]),
                () => writer.Flush(),
                () => _ = writer.Count,
                () => _ = writer[0],
                () => writer.AsSpan(0, 1),
                () => writer.Truncate(0),
                () => writer.TruncateBeginning(1),
                () => writer.EnsureCapacity(10_000),
                () => writer.GetEnumerator(),
            },
            call => Assert.Contains("refuses every later call", Assert.Throws<ListMmfException>(call).Message, StringComparison.Ordinal));
        writer.Dispose();
        using var next = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        Assert.Equal(Enumerable.Range(100, 900).Select(i => (long)i), next.ToArray());
    }

    [Fact]
    public void AWidenedFileThatCannotBeOpenedLeavesTheIntegerListRefusingEveryCall()
    {
        using var list = IntegerListMmf.OpenSmallest(FilePath);
        list.AddRange(Enumerable.Range(0, 200).Select(i => (long)i).ToArray());
        FailAt(ReplacementStep.OpenNew);

        var exception = Assert.Throws<ListMmfException>(() => list.Add(100_000));

        Assert.Contains("holding the 200 values as UInt24, is at the path", exception.Message, StringComparison.Ordinal);
        Assert.Throws<ListMmfException>(() => list.Add(1));
        Assert.Throws<ListMmfException>(() => list.AddRange([1]));
        Assert.Throws<ListMmfException>(() => list.Flush());
        Assert.Throws<ListMmfException>(() => _ = list.Count);
        Assert.Throws<ListMmfException>(() => _ = list[0]);
        Assert.Equal(200, ListMmfFileInfo.Read(FilePath).Count);
        Assert.Equal(DataType.UInt24, ListMmfFileInfo.Read(FilePath).DataType);
    }

    [Fact]
    public void AFailedDirectoryFlushReportsThatTheListHoldsTheNewFile()
    {
        using var writer = WriterWith(1_000, MappingBackend.Default);
        FailAt(ReplacementStep.FlushDirectory);

        var exception = Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(100));

        Assert.Contains("the list now holds the new file", exception.Message, StringComparison.Ordinal);
        writer.Add(1_000);
        Assert.Equal(901, ListMmfFileInfo.Read(FilePath).Count);
    }

    [Fact]
    public void AnEnumerationGoesOnOverTheFileItStartedOnUntilTheListMovesTwice()
    {
        using var writer = WriterWith(1_000, MappingBackend.Default);
        using ListMmf<long>.Enumerator enumerator = writer.GetEnumerator();
        Assert.True(enumerator.MoveNext());

        writer.TruncateBeginning(100);
        Assert.True(enumerator.MoveNext());
        Assert.Equal(1, enumerator.Current);
        writer.TruncateBeginning(100);

        Assert.Throws<InvalidOperationException>(() => enumerator.MoveNext());
    }

    [LinuxFact]
    public void OldFilesGiveTheirSpaceBackAsAWriterAndAReaderRollAWindow()
    {
        foreach (MappingBackend backend in new[] { MappingBackend.Posix, MappingBackend.MemoryMappedFile })
        {
            string path = _directory.File($"window-{backend}.bin");
            using var writer = new ListMmf<long>(path, FileAccess.ReadWrite, Backends.Options(backend));
            using var reader = new ListMmf<long>(path, FileAccess.Read, Backends.Options(backend));
            var batch = new long[100_000];
            for (int round = 0; round < 40; round++)
            {
                writer.AddRange(batch);
                writer.TruncateBeginning(batch.Length);
                Assert.Equal(0, reader.Count);
            }

            // The writer and the reader each keep the one file they left last, for spans taken before.
            Assert.True(DeletedFilesHeld() <= 2, $"{backend}: {DeletedFilesHeld()} descriptors or mappings of deleted files are held after 40 replacements");
        }
    }

    [Fact]
    public void FileInfoReadsEveryHeaderOfAFileBeingReplacedOverAndOver()
    {
        using var writer = WriterWith(1_000, MappingBackend.Default);
        int failures = 0, reads = 0;
        string? firstFailure = null;
        using var done = new CancellationTokenSource();
        var reading = new Thread(() =>
        {
            while (!done.IsCancellationRequested)
            {
                try
                {
                    ListMmfFileInfo info = ListMmfFileInfo.Read(FilePath);
                    Assert.Equal(2, info.Version);
                    reads++;
                }
                catch (Exception exception) when (exception is IOException or Xunit.Sdk.XunitException)
                {
                    firstFailure ??= exception.Message;
                    failures++;
                }
            }
        });
        reading.Start();

        for (int round = 0; round < 1_000; round++)
        {
            writer.AddRange(new long[10]);
            writer.TruncateBeginning(10);
        }

        done.Cancel();
        reading.Join();
        Assert.True(reads > 100, $"only {reads} reads beside 1,000 replacements");
        Assert.True(failures == 0, $"{failures} of {reads + failures} header reads failed, the first: {firstFailure}");
    }

    /// <summary>The replaced mark of the version 2 file at the path (its state field, at byte 16), read beside the writer.</summary>
    private int MarkOnDisk()
    {
        using var file = new FileStream(FilePath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        byte[] state = new byte[sizeof(int)];
        file.Position = 16;
        file.ReadExactly(state);
        return BitConverter.ToInt32(state);
    }

    private ListMmf<long> WriterWith(int count, MappingBackend backend)
    {
        var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        writer.AddRange(Enumerable.Range(0, count).Select(i => (long)i).ToArray());
        return writer;
    }

    private static void FailAt(ReplacementStep failing) =>
        FileReplacement.BeforeStep = step =>
        {
            if (step == failing)
            {
                throw new IOException($"injected failure at {step}");
            }
        };

    private string[] FileNames() => Directory.GetFiles(_directory.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray()!;

    private int DeletedFilesHeld()
    {
        int descriptors = new DirectoryInfo("/proc/self/fd").EnumerateFileSystemInfos()
            .Select(link => { try { return link.LinkTarget; } catch (IOException) { return null; } })
            .Count(target => target is not null && target.StartsWith(_directory.Path, StringComparison.Ordinal) && target.EndsWith("(deleted)", StringComparison.Ordinal));
        // A file mapped in several views (one per growth) has several lines: count the files, by inode.
        int mappings = File.ReadLines("/proc/self/maps")
            .Where(line => line.Contains(_directory.Path, StringComparison.Ordinal) && line.EndsWith("(deleted)", StringComparison.Ordinal))
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[4])
            .Distinct(StringComparer.Ordinal)
            .Count();
        return Math.Max(descriptors, mappings);
    }
}
