using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using ListMmf.Storage;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.SharedFolder;

/// <summary>
/// Nothing the library creates follows a name another user planted in a shared folder: the temporary files of a new
/// file and of a description, and the writer lock's sidecar, are created exclusively and opened without following a
/// link, so a planted link makes the open fail or is taken away as a name, never written through.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class PlantedLinkTests : IDisposable
{
    /// <summary>How often the racing cases open a writer while the planter swaps its link in and out.</summary>
    private const int RacingOpens = 3_000;

    private readonly SharedFolder _folder = new();
    private readonly SharedFolder.Victim _victim = new();

    public void Dispose()
    {
        _folder.Dispose();
        _victim.Dispose();
    }

    [UnixFact]
    public void ALinkAtANewFilesTemporaryNameIsNotWrittenThrough()
    {
        string path = _folder.File("prices.bin");
        SharedFolder.Plant("ln", "-s", _victim.Path, DurableFile.TemporaryFor(path));

        using (var list = new ListMmf<long>(path))
        {
            list.Add(7);
        }

        Assert.True(_victim.IsUntouched(), "the victim's file was written through the temporary name");
        Assert.Null(new FileInfo(path).LinkTarget);
        using var reader = new ListMmf<long>(path, FileAccess.Read);
        Assert.Equal([7L], reader.ToArray());
    }

    [UnixFact]
    public void ALinkAtADescriptionsTemporaryNameIsNotWrittenThrough()
    {
        string path = _folder.File("quotes.bin");
        string description = ListMmfDescription.PathFor(path);
        SharedFolder.Plant("ln", "-s", _victim.Path, DurableFile.TemporaryFor(description));

        using (var list = new ListMmf<Quote192>(path, options: new ListMmfOptions { FormatVersion = ListMmfFormatVersion.Version1 }))
        {
            list.Add(default);
        }

        Assert.True(_victim.IsUntouched(), "the victim's file was written through the description's temporary name");
        Assert.Null(new FileInfo(description).LinkTarget);
        Assert.StartsWith("{", File.ReadAllText(description), StringComparison.Ordinal);
    }

    [UnixFact]
    public void ADanglingLinkAtTheWriterLockIsRefusedAndCreatesNothing()
    {
        using var absent = new SharedFolder.Victim(create: false);
        string path = _folder.File("ticks.bin");
        SharedFolder.Plant("ln", "-s", absent.Path, WriterLock.PathFor(path));

        var refused = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Contains("is a symbolic link", refused.Message, StringComparison.Ordinal);
        Assert.True(absent.IsUntouched(created: false), "the writer created the file the link names");
        Assert.False(File.Exists(path));
    }

    [UnixFact]
    public void ALinkAtTheWriterLockToAnotherFileIsRefusedAndLeavesThatFileAsItWas()
    {
        string path = _folder.File("ticks.bin");
        SharedFolder.Plant("ln", "-s", _victim.Path, WriterLock.PathFor(path));

        var refused = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Contains("is a symbolic link", refused.Message, StringComparison.Ordinal);
        Assert.Contains("sticky bit", refused.Message, StringComparison.Ordinal);
        Assert.True(_victim.IsUntouched());
    }

    [LinuxFact]
    public void AWriterLockThatIsASecondNameOfTheDataFileIsRefusedWithThatReason()
    {
        string path = _folder.File("ticks.bin");
        using (var list = new ListMmf<long>(path))
        {
            list.Add(1);
        }

        // By the file's owner: the kernel lets nobody else link a file of another user (fs.protected_hardlinks).
        using (Process link = Process.Start("ln", [path, WriterLock.PathFor(path)]))
        {
            link.WaitForExit();
            Assert.Equal(0, link.ExitCode);
        }

        var refused = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Contains("names of one file", refused.Message, StringComparison.Ordinal);
        using var reader = new ListMmf<long>(path, FileAccess.Read);
        Assert.Equal([1L], reader.ToArray());
    }

    /// <summary>
    /// The planter swaps a link to the victim's file in at the sidecar's name, over and over, while writers open and
    /// close: before, a writer that found no sidecar then created it through the link (truncating the victim's file
    /// and changing its mode). Each open must now either get its writer or be refused, and the victim's file stays.
    /// </summary>
    [UnixFact]
    public void ALinkSwappedInAtTheWriterLockNeverTruncatesOrChangesAnotherFile()
    {
        string path = _folder.File("ticks.bin");
        string lockPath = WriterLock.PathFor(path);
        using (new ListMmf<long>(path))
        {
        }

        using Process planter = SharedFolder.StartAsPlanter("sh", "-c", $"while :; do ln -sfn '{_victim.Path}' '{lockPath}'; rm -f '{lockPath}'; done");
        int opened = 0;
        try
        {
            for (int i = 0; i < RacingOpens; i++)
            {
                try
                {
                    using var writer = new ListMmf<long>(path);
                    opened++;
                }
                catch (ListMmfException refused) when (refused.Message.Contains("symbolic link", StringComparison.Ordinal))
                {
                }
            }
        }
        finally
        {
            planter.Kill();
            planter.WaitForExit();
        }

        Assert.True(_victim.IsUntouched(), $"the victim's file was changed ({opened:N0} of {RacingOpens:N0} opens got a writer)");
    }

    /// <summary>
    /// A link the user opens the file through flips between two files while a writer holds one of them: before, the
    /// lock was taken for the file the link named at one moment and the file opened at the next, so that a writer
    /// got the held file. Each open must now get the other file, be refused as locked, or be refused because the
    /// path changed; never the held file.
    /// </summary>
    [PathIdentityFact]
    public void AWriterOpenedThroughAFlippingLinkNeverGetsAFileAnotherWriterHolds()
    {
        string held = _folder.File("held.bin");
        string free = _folder.File("free.bin");
        string link = _folder.File("current.bin");
        using var holder = new ListMmf<long>(held);
        holder.Add(1);
        using (var other = new ListMmf<long>(free))
        {
            other.Add(2);
        }

        SharedFolder.Plant("ln", "-s", free, link);
        string script = $"cd '{_folder.Path}'; while :; do ln -sfn held.bin next.bin; mv -T next.bin current.bin; " +
            "ln -sfn free.bin next.bin; mv -T next.bin current.bin; done";
        using Process flipper = SharedFolder.StartAsPlanter("sh", "-c", script);
        int wrong = 0;
        try
        {
            for (int i = 0; i < RacingOpens; i++)
            {
                try
                {
                    using var writer = new ListMmf<long>(link);
                    wrong += writer[0] == 1 ? 1 : 0;
                }
                catch (ListMmfException refused) when (refused is ListMmfLockedException || refused.Message.Contains("named another file", StringComparison.Ordinal))
                {
                }
            }
        }
        finally
        {
            flipper.Kill();
            flipper.WaitForExit();
        }

        Assert.True(wrong == 0, $"{wrong:N0} of {RacingOpens:N0} opens got a writer on the file another writer holds");
    }
}
