using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using System.Threading.Tasks;
using ListMmf.Search;
using ListMmf.Storage;
using ListMmf.Tests.MultiProcess;
using ListMmf.Tests.Platform;
using ListMmf.Tool.Import;
using Xunit;

namespace ListMmf.Tests.SharedFolder;

/// <summary>
/// What another member of a team folder can plant there (links at data files, table folders and column files, FIFOs
/// and devices at side files, a rename or a removed sidecar under a live writer, a link renamed over a replacement's
/// copy, a swapped folder under a failed import) never turns the library against its user: each is refused with a
/// message that names it, or has no effect, and nothing outside what the user asked for is read, written or removed.
/// Each case failed on 5abfe22 (issue 63), but the two that guard what keeps working: one's own links, and the data
/// file's lock given back.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class TeamFolderTests : IDisposable
{
    /// <summary>Longer than any of these opens takes; reached only by an open that waits for a FIFO's writer.</summary>
    private static readonly TimeSpan HangDeadline = TimeSpan.FromSeconds(60);

    private readonly SharedFolder _folder = new();
    private readonly TempDirectory _elsewhere = new();

    public void Dispose()
    {
        FileReplacement.BeforeStep = null;
        _folder.Dispose();
        _elsewhere.Dispose();
    }

    /// <summary>
    /// An import fails after creating its table folder, and another member has meanwhile renamed that folder away
    /// and put a link to a folder in the importer's home at its name. Before, the clean-up deleted by path through
    /// the link: the home folder's files of the same names went.
    /// </summary>
    [UnixFact]
    public void AFailedImportRemovesOnlyWhatItCreatedFromTheFolderItCreated()
    {
        string home = _elsewhere.File("home");
        Directory.CreateDirectory(home);
        string[] names = [TimeSeriesTable.ManifestFileName, "time.mmf", "price.mmf"];
        foreach (string name in names)
        {
            File.WriteAllText(Path.Combine(home, name), "the importer's own file");
        }

        string output = _folder.File("new-table");
        var target = new ImportTarget("ticks.csv", output, "time", [new ImportColumn("price", DataType.Double)], TicksTime: false, Order: null);
        var import = TableImport.Open(target, ticksIfNew: false, utc: null);
        import.Table.Column<double>("price").Add(1.5);
        import.Table.StageRows(new int[] { 1_700_000_000 });
        Directory.Move(output, _folder.File("moved"));
        File.CreateSymbolicLink(output, home);

        import.Dispose();

        Assert.All(names, name => Assert.Equal("the importer's own file", File.ReadAllText(Path.Combine(home, name))));
        // The writer locks' sidecars stay: their holders let go by a path that no longer names this folder.
        string[] left = [.. Directory.GetFiles(_folder.File("moved")).Select(file => Path.GetFileName(file))
            .Where(name => !name.EndsWith(WriterLock.SidecarSuffix, StringComparison.Ordinal))];
        Assert.Empty(left);
    }

    /// <summary>A link another member planted at a data file's name, to a file of the writer's: never written through.</summary>
    [PlanterTheory, MemberData(nameof(SharedFolder.Kinds), MemberType = typeof(SharedFolder))]
    public void AWriterRefusesALinkAnotherMemberPlantedAtTheDataFile(bool team)
    {
        using var folder = new SharedFolder(team);
        using var victim = new SharedFolder.Victim();
        string path = folder.File("ES.bt");
        SharedFolder.Plant("ln", "-s", victim.Path, path);

        var refusal = Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.Contains($"the symbolic link '{path}' belongs to user '{SharedFolder.Planter}'", refusal.Message, StringComparison.Ordinal);
        Assert.True(victim.IsUntouched());
    }

    /// <summary>A dangling link another member planted at a new file's name: the file is not created where it points.</summary>
    [PlanterTheory, MemberData(nameof(SharedFolder.Kinds), MemberType = typeof(SharedFolder))]
    public void AWriterCreatesNothingThroughADanglingLinkAnotherMemberPlanted(bool team)
    {
        using var folder = new SharedFolder(team);
        using var victim = new SharedFolder.Victim(create: false);
        string path = folder.File("CL.bt");
        SharedFolder.Plant("ln", "-s", victim.Path, path);

        Assert.Throws<ListMmfException>(() => new ListMmf<long>(path));

        Assert.True(victim.IsUntouched(created: false));
    }

    /// <summary>A reader refuses such a link too: it would read another file under the name the user gave.</summary>
    [PlanterTheory, MemberData(nameof(SharedFolder.Kinds), MemberType = typeof(SharedFolder))]
    public void AReaderRefusesALinkAnotherMemberPlantedAtTheDataFile(bool team)
    {
        using var folder = new SharedFolder(team);
        string other = _elsewhere.File("private.bt");
        using (var list = new ListMmf<long>(other))
        {
            list.Add(42);
        }

        string path = folder.File("ES.bt");
        SharedFolder.Plant("ln", "-s", other, path);

        Assert.Throws<ListMmfException>(() => new ListMmf<long>(path, FileAccess.Read));
    }

    /// <summary>The user's own links keep working: the rule refuses only other members' links.</summary>
    [UnixFact]
    public void AWriterFollowsALinkOfItsOwnUser()
    {
        string real = _elsewhere.File("real.bt");
        string path = _folder.File("ES.bt");
        File.CreateSymbolicLink(path, real);

        using (var list = new ListMmf<long>(path))
        {
            list.Add(7);
        }

        using var reader = new ListMmf<long>(real, FileAccess.Read);
        Assert.Equal(7, reader[0]);
    }

    /// <summary>
    /// A link another member planted at a table's folder name, to another team's table: importing into the name
    /// appended rows to that table before.
    /// </summary>
    [PlanterTheory, MemberData(nameof(SharedFolder.Kinds), MemberType = typeof(SharedFolder))]
    public void ATableFolderLinkAnotherMemberPlantedIsRefused(bool team)
    {
        using var folder = new SharedFolder(team);
        string otherTable = _elsewhere.File("other-team-table");
        CreateTable(otherTable, rows: 3).Dispose();
        string path = folder.File("nqTable");
        SharedFolder.Plant("ln", "-s", otherTable, path);

        Assert.Throws<ListMmfException>(() => TimeSeriesTable.Open(path));
        Assert.Throws<ListMmfException>(() => TimeSeriesTable.Open(path, FileAccess.Read));

        using var table = TimeSeriesTable.Open(otherTable, FileAccess.Read);
        Assert.Equal(3, table.RowCount);
    }

    /// <summary>
    /// A column file that is a link (to another user's column): before, an export printed its values and a seal
    /// replaced it. A table's column files are regular files in its folder, whoever made the link.
    /// </summary>
    [UnixFact]
    public void AColumnFileThatIsALinkIsRefused()
    {
        string victimTable = _elsewhere.File("victim-table");
        CreateTable(victimTable, rows: 1_000).Dispose();
        string table = _folder.File("table");
        CreateTable(table, rows: 3).Dispose();
        string size = Path.Combine(table, "size.mmf");
        File.Delete(size);
        File.CreateSymbolicLink(size, Path.Combine(victimTable, "size.mmf"));

        var reading = Assert.Throws<ListMmfException>(() => TimeSeriesTable.Open(table, FileAccess.Read));
        Assert.Throws<ListMmfException>(() => TimeSeriesTable.Open(table));
        Assert.ThrowsAny<ListMmfException>(() => TimeSeriesTable.Seal(table));

        Assert.Contains("is a symbolic link", reading.Message, StringComparison.Ordinal);
        using var victim = TimeSeriesTable.Open(victimTable, FileAccess.Read);
        Assert.Equal(1_000, victim.RowCount);
        Assert.Equal(999, victim.Column<int>("size").AsSpan(new IndexRange(999, 1_000))[0]);
        Assert.False(SealedListMmf.IsSealed(Path.Combine(victimTable, "size.mmf")));
    }

    /// <summary>A FIFO at a table's manifest: opening the table waited for a writer forever before.</summary>
    [UnixFact]
    public void AFifoAtTheManifestIsRefusedWithoutWaiting()
    {
        string table = _folder.File("table");
        CreateTable(table, rows: 3).Dispose();
        string manifest = Path.Combine(table, TimeSeriesTable.ManifestFileName);
        File.Delete(manifest);
        MakeFifo(manifest);

        var refusal = Assert.Throws<ListMmfException>(() => WithinDeadline(() => TimeSeriesTable.Open(table, FileAccess.Read)));

        Assert.Contains("a FIFO", refusal.Message, StringComparison.Ordinal);
    }

    /// <summary>A link to /dev/zero at a table's manifest: the open read until it ran out of memory before.</summary>
    [UnixFact]
    public void ALinkToADeviceAtTheManifestIsRefused()
    {
        string table = _folder.File("table");
        CreateTable(table, rows: 3).Dispose();
        string manifest = Path.Combine(table, TimeSeriesTable.ManifestFileName);
        File.Delete(manifest);
        File.CreateSymbolicLink(manifest, "/dev/zero");

        var refusal = Assert.Throws<ListMmfException>(() => WithinDeadline(() => TimeSeriesTable.Open(table, FileAccess.Read)));

        Assert.Contains("is a symbolic link", refusal.Message, StringComparison.Ordinal);
    }

    /// <summary>A manifest larger than any real one is refused before it is read whole.</summary>
    [UnixFact]
    public void AManifestLargerThanTheCapIsRefused()
    {
        string table = _folder.File("table");
        CreateTable(table, rows: 3).Dispose();
        string manifest = Path.Combine(table, TimeSeriesTable.ManifestFileName);
        File.AppendAllText(manifest, new string(' ', SideFile.MaximumBytes));

        var refusal = Assert.Throws<ListMmfFormatException>(() => TimeSeriesTable.Open(table, FileAccess.Read));

        Assert.Contains("more than the", refusal.Message, StringComparison.Ordinal);
    }

    /// <summary>A FIFO at a version 1 file's description: reading the description waited forever before.</summary>
    [UnixFact]
    public void AFifoAtADescriptionIsRefusedWithoutWaiting()
    {
        string path = _folder.File("quotes.bt");
        var version1 = ListMmfOptions.Default with { FormatVersion = ListMmfFormatVersion.Version1 };
        using (var list = new ListMmf<long>(path, FileAccess.ReadWrite, version1))
        {
            list.Add(1);
        }

        MakeFifo(ListMmfDescription.PathFor(path));

        var refusal = Assert.Throws<ListMmfException>(() => WithinDeadline(() => ListMmfDescription.Read(path)));

        Assert.Contains("a FIFO", refusal.Message, StringComparison.Ordinal);
    }

    /// <summary>A FIFO at a list's fence file: a cold search waited forever before; now it searches without fences.</summary>
    [UnixFact]
    public void AFifoAtTheFencesLeavesSearchesRight()
    {
        string path = _folder.File("times.bt");
        using (var writer = new SortedListMmf<int>(path, TimeSeriesOrder.Ascending))
        {
            writer.AddRange(Enumerable.Range(0, 100_000).ToArray());
        }

        File.Delete(FenceFile<int>.PathFor(path));
        MakeFifo(FenceFile<int>.PathFor(path));

        long index = WithinDeadline(() =>
        {
            // Searched as a cold file is, which reads the fences first (a warm one never opens them).
            using var reader = new SortedListMmf<int>(path, TimeSeriesOrder.Ascending, FileAccess.Read)
            {
                IndexMinimumPages = 1,
                AssumeCold = true,
                ColdSearchesBeforeIndex = long.MaxValue,
            };
            return reader.LowerBound(900);
        });

        Assert.Equal(900, index);
    }

    /// <summary>A FIFO at a data file's name: the reader's open waited forever before.</summary>
    [UnixFact]
    public void AFifoAtADataFileIsRefusedWithoutWaiting()
    {
        string path = _folder.File("ES.bt");
        MakeFifo(path);

        var refusal = Assert.Throws<ListMmfException>(() => WithinDeadline(() => new ListMmf<long>(path, FileAccess.Read)));

        Assert.Contains("a FIFO", refusal.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// A live file renamed, and a second writer opened on the new name: it got in before (the lock guarded the old
    /// name's sidecar), and two writers appended to one file.
    /// </summary>
    [LinuxFact]
    public void ASecondWriterOnARenamedLiveFileIsRefused()
    {
        string path = _folder.File("ES.bt");
        using var holder = ChildProcess.Start("hold", path);
        Assert.Equal("holding", holder.ReadLine());
        string renamed = _folder.File("ES-renamed.bt");
        File.Move(path, renamed);

        Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(renamed));

        holder.CloseInput();
        Assert.Equal(0, holder.WaitForExit(HangDeadline));
    }

    /// <summary>A live writer's sidecar removed (a folder without the sticky bit), and a second writer opened: it got in before.</summary>
    [LinuxFact]
    public void ASecondWriterAfterTheSidecarWasRemovedIsRefused()
    {
        string path = _folder.File("ES.bt");
        using var holder = ChildProcess.Start("hold", path);
        Assert.Equal("holding", holder.ReadLine());
        File.Delete(path + WriterLock.SidecarSuffix);

        Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(path));

        holder.CloseInput();
        Assert.Equal(0, holder.WaitForExit(HangDeadline));
    }

    /// <summary>The data file's lock goes with its writer: the next writer gets in once the first is disposed.</summary>
    [LinuxFact]
    public void TheDataFilesLockIsGivenBackOnDispose()
    {
        string path = _folder.File("ES.bt");
        new ListMmf<long>(path).Dispose();

        using var second = new ListMmf<long>(path);

        Assert.Equal(0, second.Count);
    }

    /// <summary>
    /// A link to another file renamed over a replacement's copy before its rename into place: before, the list moved
    /// onto the linked file and wrote it while its own writer held it. Now the replacement is refused, the linked
    /// file untouched.
    /// </summary>
    [PathIdentityFact]
    public void AReplacementNeverMovesOntoALinkRenamedOverItsCopy()
    {
        string other = _elsewhere.File("other-team.bt");
        using var otherWriter = new ListMmf<long>(other);
        otherWriter.AddRange([10, 20, 30]);
        otherWriter.Flush();
        string path = _folder.File("ES.bt");
        using var writer = new ListMmf<long>(path);
        for (long i = 0; i < 1_000; i++)
        {
            writer.Add(i);
        }

        string temporary = DurableFile.TemporaryFor(path);
        FileReplacement.BeforeStep = step =>
        {
            if (step == ReplacementStep.MarkOld)
            {
                File.Move(temporary, _folder.File("copy-moved-away"));
                File.CreateSymbolicLink(temporary, other);
            }
        };

        Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(100));

        FileReplacement.BeforeStep = null;
        Assert.Equal([10L, 20L, 30L], otherWriter.AsSpan(new IndexRange(0, 3)).ToArray());
        Assert.Equal(3, otherWriter.Count);
        Assert.Equal(1_000, writer.Count);
    }

    private static TimeSeriesTable CreateTable(string folder, int rows)
    {
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.Ascending).Add("size", DataType.Int32);
        var table = TimeSeriesTable.Create(folder, schema);
        for (int i = 0; i < rows; i++)
        {
            table.Column<int>("size").Add(i);
            table.AddRow(DateTime.UnixEpoch.AddSeconds(1_700_000_000 + i));
        }

        table.Flush();
        return table;
    }

    private static void MakeFifo(string path)
    {
        using Process mkfifo = Process.Start("mkfifo", [path])!;
        mkfifo.WaitForExit();
        Assert.Equal(0, mkfifo.ExitCode);
    }

    /// <summary>Runs <paramref name="open"/> on another thread; a hang fails the test after <see cref="HangDeadline"/>.</summary>
    private static T WithinDeadline<T>(Func<T> open)
    {
        Task<T> task = Task.Run(open);
        if (Task.WhenAny(task, Task.Delay(HangDeadline)).GetAwaiter().GetResult() != task)
        {
            throw new TimeoutException($"the open did not return within {HangDeadline.TotalSeconds:N0} s: it waits on the FIFO");
        }

        return task.GetAwaiter().GetResult();
    }

    private static void WithinDeadline(Action open) => WithinDeadline(() =>
    {
        open();
        return 0;
    });
}
