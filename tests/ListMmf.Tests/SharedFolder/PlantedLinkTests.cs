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
    /// <summary>How often the racing cases open a writer while the planter swaps its link in and out, at least.</summary>
    private const int RacingOpens = 3_000;

    /// <summary>
    /// How many opens of each outcome a racing case waits for, so that it proves the planter raced the opens; it
    /// gives up (and fails) only after <see cref="MaximumOpens"/>, which only a planter that never ran reaches.
    /// </summary>
    private const int EachOutcome = 100;

    private const int MaximumOpens = 200_000;

    private readonly SharedFolder _folder = new();
    private readonly SharedFolder.Victim _victim = new();

    public void Dispose()
    {
        _folder.Dispose();
        _victim.Dispose();
    }

    /// <summary>
    /// The planter swaps a link to the victim's file in and out at a new file's temporary name while files are
    /// created: before, the temporary name was removed and then opened with FileMode.Create, which a link planted in
    /// between made write the header and items into the victim's file. Each create must now succeed or be refused.
    /// </summary>
    [UnixFact]
    public void ALinkSwappedInAtANewFilesTemporaryNameIsNeverWrittenThrough()
    {
        string path = _folder.File("prices.bin");
        using Process planter = SharedFolder.StartLinkSwapper(DurableFile.TemporaryFor(path), _victim.Path, null);
        int created = 0;
        int refused = 0;
        try
        {
            for (int i = 0; i < MaximumOpens && (i < RacingOpens || created < EachOutcome || refused < EachOutcome); i++)
            {
                try
                {
                    using (new ListMmf<long>(path))
                    {
                        created++;
                    }

                    File.Delete(path);
                }
                catch (ListMmfException refusal) when (refusal.Message.Contains("could not create the file", StringComparison.Ordinal))
                {
                    refused++;
                }
            }
        }
        finally
        {
            planter.Kill(entireProcessTree: true);
            planter.WaitForExit();
        }

        Assert.True(_victim.IsUntouched(), $"the victim's file was written ({created:N0} files created, {refused:N0} refused)");
        Assert.True(created >= EachOutcome, $"too few files were created to prove anything: {created:N0} ({refused:N0} refused)");
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

    /// <summary>
    /// Another user moves a sealed file aside and puts a link to the victim's file at its name while an unseal runs,
    /// just before the unseal marks the sealed file replaced: before, the mark was written through a second open by
    /// name, so its four bytes went into the victim's file. The mark now goes through the handle held since the open.
    /// </summary>
    [UnixFact]
    public void AnUnsealNeverWritesItsMarkThroughALinkPlantedAtTheName()
    {
        string path = _folder.File("ticks.bin");
        using (var list = new ListMmf<long>(path))
        {
            list.AddRange(Enumerable.Range(0, 5_000).Select(i => 3L * i).ToArray());
        }

        SealedListMmf.Seal(path);
        bool planted = false;
        FileReplacement.BeforeStep = step =>
        {
            if (step == ReplacementStep.MarkOld)
            {
                File.Move(path, path + ".aside");
                SharedFolder.Plant("ln", "-s", _victim.Path, path);
                planted = true;
            }
        };
        try
        {
            SealedListMmf.Unseal(path);
        }
        finally
        {
            FileReplacement.BeforeStep = null;
        }

        Assert.True(planted, "the unseal never reached its mark");
        Assert.True(_victim.IsUntouched(), "the unseal's mark was written into the file the planted link names");
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

        using Process planter = SharedFolder.StartLinkSwapper(lockPath, _victim.Path, null);
        int opened = 0;
        int refused = 0;
        try
        {
            for (int i = 0; i < MaximumOpens && (i < RacingOpens || opened < EachOutcome || refused < EachOutcome); i++)
            {
                try
                {
                    using var writer = new ListMmf<long>(path);
                    opened++;
                }
                catch (ListMmfException refusal) when (refusal.Message.Contains("symbolic link", StringComparison.Ordinal)
                    || refusal.Message.Contains("was no longer the one at its path", StringComparison.Ordinal))
                {
                    // Refused as a link, or (the planter swapping faster than the lock's tries) as a sidecar that
                    // kept changing under it: both leave every file as it was.
                    refused++;
                }
            }
        }
        finally
        {
            planter.Kill(entireProcessTree: true);
            planter.WaitForExit();
        }

        Assert.True(_victim.IsUntouched(), $"the victim's file was changed ({opened:N0} opens got a writer, {refused:N0} were refused)");
        Assert.True(
            refused >= EachOutcome && opened >= EachOutcome,
            $"the planter did not race the opens: {opened:N0} got a writer, {refused:N0} were refused");
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
        string freePath = _folder.File("free.bin");
        string link = _folder.File("current.bin");
        using var holder = new ListMmf<long>(held);
        holder.Add(1);
        using (var other = new ListMmf<long>(freePath))
        {
            other.Add(2);
        }

        // The user's own link, flipped by another of the user's processes: another member's link is refused at once
        // (TeamFolderTests), so only a link the library follows can race its lock and open.
        File.CreateSymbolicLink(link, freePath);
        using Process flipper = SharedFolder.StartLinkSwapper(link, held, freePath, asPlanter: false);
        int wrong = 0;
        int free = 0;
        int refused = 0;
        try
        {
            for (int i = 0; i < MaximumOpens && (i < RacingOpens || free < EachOutcome || refused < EachOutcome); i++)
            {
                try
                {
                    using var writer = new ListMmf<long>(link);
                    (writer[0] == 1 ? ref wrong : ref free)++;
                }
                catch (ListMmfException refusal)
                    when (refusal is ListMmfLockedException || refusal.Message.Contains("named another file", StringComparison.Ordinal)
                        || refusal.Message.Contains("was put at the path while it was opened", StringComparison.Ordinal))
                {
                    refused++;
                }
            }
        }
        finally
        {
            flipper.Kill(entireProcessTree: true);
            flipper.WaitForExit();
        }

        Assert.True(wrong == 0, $"{wrong:N0} opens got a writer on the file another writer holds ({free:N0} got the free one, " +
            $"{refused:N0} were refused)");
        Assert.True(
            free >= EachOutcome && refused >= EachOutcome,
            $"the link did not flip during the opens: {free:N0} got the free file, {refused:N0} were refused");
    }
}
