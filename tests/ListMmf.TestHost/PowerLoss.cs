using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;
using ListMmf.Sealed;

namespace ListMmf.TestHost;

/// <summary>
/// The two ends of the power-loss harness (tests/PowerLoss): the workloads, run in a folder that the recording file
/// system serves, and the checks, run on the crash images built from the recording.
/// <list type="bullet">
/// <item><c>power-write WORKLOAD DIR FORMAT</c>: runs the workload in DIR, its files created in FORMAT (v1 or v2). After each call whose result must survive a power
/// loss returns (a create, a Flush, a TruncateBeginning, a widening), it looks up DIR/.mark-N-WHAT, a name that does
/// not exist: the recorder logs the look-up in its stream of file-system operations, so every crash point knows
/// exactly what the library had promised by then.</item>
/// <item><c>power-check WORKLOAD FORMAT</c>: reads lines "IMAGE_DIR TAB MARK" (MARK: the last mark before the crash
/// point, or "-") from standard input and prints, for each, "IMAGE_DIR TAB ok" or "IMAGE_DIR TAB lost|undetected: WHY",
/// as a process of the boot after the power loss. A version 1 finding that the format's known exposures explain (a
/// count on disk past the last flush, or items lost in the first page that the header shares) is printed as
/// "exposure: WHY", counted apart.
/// A crash of this process (SIGBUS, an access violation) is seen by the harness, which starts it again after the
/// image.</item>
/// </list>
/// Workloads: <c>append</c> (ListMmf&lt;long&gt; appends across growths, flushed), <c>window</c> (consecutive values,
/// TruncateBeginning as a rolling window), <c>table</c> (a TimeSeriesTable of four columns), <c>text-table</c> (a
/// table with a text column taking a new value every 60 rows, each made durable before its row), <c>widen</c>
/// (IntegerListMmf widening from Byte through Int32), <c>seal</c> (a list sealed, unsealed and sealed again),
/// <c>seal-table</c> (the same for the tick table, column by column), <c>empty</c> (replacements whose copy holds
/// no item: a window emptied, an empty list sealed and unsealed, an empty version 1 list upgraded), <c>catalog</c>
/// (a catalog of four instruments over three days, see PowerLoss.Catalog.cs).
/// </summary>
public static partial class PowerLoss
{
    private const string ListName = "list.bin";
    private const string TableName = "ticks";

    public static int Write(string workload, string directory, string format)
    {
        int marks = 0;
        // Under the block-level recorder the workload's folder is a file system on a recorded disk: its marks are
        // looked up in the recorder's own folder (LISTMMF_POWER_MARKS), ordered there with the disk's writes.
        string markFolder = Environment.GetEnvironmentVariable("LISTMMF_POWER_MARKS") is { Length: > 0 } marksAt ? marksAt : directory;
        void Mark(string what) => _ = File.Exists(Path.Combine(markFolder, $".mark-{marks++}-{what}"));
        string list = Path.Combine(directory, ListName);
        var small = new ListMmfOptions { InitialCapacity = 16, FormatVersion = FormatOf(format) };
        switch (workload)
        {
            case "append":
            {
                // With write-behind, so that item blocks reach the disk between flushes too (5.6 MB in all: it
                // starts every 2 MiB).
                using var writer = new ListMmf<long>(list, FileAccess.ReadWrite, small with { WriteBehind = true });
                Mark("created");
                for (int round = 0; round < 24; round++)
                {
                    long count = writer.Count;
                    int batch = 500 + (round * 2_500);
                    for (int i = 0; i < batch; i++)
                    {
                        writer.Add(Program.ValueAt(count + i));
                    }

                    if (round % 3 != 2)
                    {
                        writer.Flush();
                        Mark($"flushed:{writer.Count}");
                    }
                }

                return 0;
            }

            case "window":
            {
                using var writer = new ListMmf<long>(list, FileAccess.ReadWrite, small);
                Mark("created");
                long next = 0;
                for (int round = 0; round < 16; round++)
                {
                    for (int i = 0; i < 3_000; i++)
                    {
                        writer.Add(next++);
                    }

                    writer.Flush();
                    Mark($"window:{writer[0]}:{next - 1}");
                    writer.TruncateBeginning(writer.Count - 1_000);
                    Mark($"window:{writer[0]}:{next - 1}");
                }

                return 0;
            }

            case "table" or "text-table":
            {
                string folder = Path.Combine(directory, TableName);
                TableRows shape = RowsOf(workload);
                using var table = TimeSeriesTable.Create(folder, shape.Schema(), new ListMmfOptions { FormatVersion = FormatOf(format) });
                Mark("created");
                long row = 0;
                for (int round = 0; round < 12; round++)
                {
                    for (int i = 0; i < 1_500; i++)
                    {
                        shape.AddRow(table, row++);
                    }

                    table.Flush();
                    Mark($"flushed:{row}");
                }

                return 0;
            }

            case "series" or "series-writeback":
            {
                using var series = new ListMmfTimeSeriesDateTimeSeconds(list, TimeSeriesOrder.Ascending, FileAccess.ReadWrite, small);
                Mark("created");
                long count = 0;
                for (int round = 0; round < 16; round++)
                {
                    for (int i = 0; i < 1_000 + (round * 300); i++)
                    {
                        series.Add(SeriesTime(count++));
                    }

                    if (workload == "series-writeback" && round == 7)
                    {
                        // No syncfs loop runs beside this workload: the kernel writes the appended pages (and the
                        // header with its count) back on its own, between two flushes, as it does after 30 s.
                        WaitForTheKernelsWriteback(list);
                    }

                    series.Flush();
                    Mark($"flushed:{count}");
                }

                return 0;
            }

            case "catalog":
                WriteCatalog(directory, FormatOf(format), Mark);
                return 0;

            case "keyed":
            {
                using var quotes = new KeyedListMmf<Quote, long, ByTicks>(list, TimeSeriesOrder.Ascending, FileAccess.ReadWrite, small);
                Mark("created");
                long count = 0;
                for (int round = 0; round < 12; round++)
                {
                    for (int i = 0; i < 200 + (round * 50); i++)
                    {
                        quotes.Add(Quote.At(count++));
                    }

                    quotes.Flush();
                    Mark($"flushed:{count}");
                }

                return 0;
            }

            case "widen":
            {
                using var writer = IntegerListMmf.OpenSmallest(list, small);
                Mark("created");
                long count = 0;
                foreach (long limit in new long[] { 200, 30_000, 2_000_000, 1_000_000_000 })
                {
                    for (int i = 0; i < 2_000; i++)
                    {
                        writer.Add(WidenValue(count++, limit));
                    }

                    writer.Flush();
                    Mark($"flushed:{count}:{limit}");
                }

                return 0;
            }

            case "empty":
            {
                // Replacements whose copy holds no item, whose flush raises no count: a window emptied, an empty list
                // sealed and unsealed, and (version 1) an empty list upgraded.
                using (var writer = new ListMmf<long>(list, FileAccess.ReadWrite, small))
                {
                    Mark("created");
                    for (int i = 0; i < 1_000; i++)
                    {
                        writer.Add(Program.ValueAt(i));
                    }

                    writer.Flush();
                    Mark("flushed:1000");
                    writer.TruncateBeginning(writer.Count);
                    Mark("empty:emptied");
                }

                SealedListMmf.Seal(list);
                Mark("empty:sealed");
                SealedListMmf.Unseal(list);
                Mark("empty:unsealed");
                if (FormatOf(format) == ListMmfFormatVersion.Version1)
                {
                    string old = Path.Combine(directory, "old.bin");
                    using (new ListMmf<long>(old, FileAccess.ReadWrite, small))
                    {
                    }

                    Mark("empty:old-created");
                    ListMmfFileInfo.Upgrade(old);
                    Mark("empty:upgraded");
                }

                return 0;
            }

            case "lifecycle":
                return WriteLifecycle(list, small, Mark);

            case "seal":
            {
                // A list of prices, quarter points then cents, so that its blocks take the tick codecs and the decimal
                // codecs; sealed, unsealed, sealed again.
                using (var writer = new ListMmf<double>(list, FileAccess.ReadWrite, small))
                {
                    Mark("created");
                    for (int i = 0; i < SealedItems; i++)
                    {
                        writer.Add(SealValueAt(i));
                    }

                    writer.Flush();
                    Mark($"flushed:{SealedItems}");
                }

                SealedListMmf.Seal(list);
                Mark($"sealed:{SealedItems}");
                SealedListMmf.Unseal(list);
                Mark($"unsealed:{SealedItems}");
                SealedListMmf.Seal(list);
                Mark($"final:{SealedItems}");
                return 0;
            }

            case "seal-table":
            {
                // The four-column tick table, sealed column by column, unsealed and sealed again.
                string folder = Path.Combine(directory, TableName);
                using (TimeSeriesTable table = TimeSeriesTable.Create(folder, TickTable.Schema()))
                {
                    Mark("created");
                    for (long row = 0; row < SealedRows; row++)
                    {
                        TickTable.AddRow(table, row);
                    }

                    table.Flush();
                    Mark($"flushed:{SealedRows}");
                }

                TimeSeriesTable.Seal(folder);
                Mark($"sealed:{SealedRows}");
                TimeSeriesTable.Unseal(folder);
                Mark($"unsealed:{SealedRows}");
                TimeSeriesTable.Seal(folder);
                Mark($"final:{SealedRows}");
                return 0;
            }

            default:
                throw new ArgumentException($"unknown workload '{workload}'");
        }
    }

    /// <summary>The rows of the seal-table workload: nine blocks of each column and a part.</summary>
    private const int SealedRows = 9_500;

    /// <summary>The items of the seal workload.</summary>
    private const int SealedItems = 20_000;

    /// <summary>
    /// The seal workload's item at <paramref name="index"/>, never zero: quarter points in the first half, then cents,
    /// each as a parser makes it (the double nearest the decimal).
    /// </summary>
    private static double SealValueAt(long index) => index < SealedItems / 2
        ? 4_500 + ((Program.ValueAt(index) & 0xFF) * 0.25)
        : (450_000 + (Program.ValueAt(index) & 0xFFF)) / 100.0;

    /// <summary>
    /// Waits until the kernel has written back every dirty page this process maps of <paramref name="path"/>, by its
    /// own writeback (dirty_expire_centisecs, 30 s here): smaps counts a written-back page clean again. A deadline only
    /// a hang reaches.
    /// </summary>
    private static void WaitForTheKernelsWriteback(string path)
    {
        string name = Path.GetFileName(path);
        long deadline = Environment.TickCount64 + 300_000;
        while (DirtyBytesMapped(name) > 0)
        {
            if (Environment.TickCount64 > deadline)
            {
                throw new TimeoutException($"the kernel wrote the pages of '{path}' back within 300 s: {DirtyBytesMapped(name):N0} bytes still dirty");
            }

            Thread.Sleep(250);
        }
    }

    /// <summary>The dirty bytes (smaps Shared_Dirty and Private_Dirty) of this process's mappings of files named <paramref name="name"/>.</summary>
    private static long DirtyBytesMapped(string name)
    {
        long dirty = 0;
        bool inMapping = false;
        foreach (string line in File.ReadLines("/proc/self/smaps"))
        {
            string first = line.Split(' ', 2)[0];
            if (first.Contains('-', StringComparison.Ordinal) && first.All(c => c == '-' || char.IsAsciiHexDigit(c)))
            {
                inMapping = line.EndsWith("/" + name, StringComparison.Ordinal);
            }
            else if (inMapping && (line.StartsWith("Shared_Dirty:", StringComparison.Ordinal) || line.StartsWith("Private_Dirty:", StringComparison.Ordinal)))
            {
                dirty += long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) * 1024;
            }
        }

        return dirty;
    }

    private static ListMmfFormatVersion FormatOf(string format) => format switch
    {
        "v1" => ListMmfFormatVersion.Version1,
        "v2" => ListMmfFormatVersion.Version2,
        _ => throw new ArgumentException($"unknown format '{format}': v1 or v2"),
    };

    /// <summary>Checks every image named on standard input; see the class remarks.</summary>
    public static int Check(string workload, string format)
    {
        // The images are what a power loss leaves: their checker runs in the boot after it.
        ListMmf.Storage.BootSession.Current ^= 0x9E3779B97F4A7C15;
        bool version1 = FormatOf(format) == ListMmfFormatVersion.Version1;
        // A quiet run's version 1 images are held to version 2's rules: with no writeback but the flushes', which write
        // the count last, nothing past a flush reaches the disk before its count (the torn first page aside, below).
        s_version1 = version1 && Environment.GetEnvironmentVariable(QuietVariable) is not { Length: > 0 };
        int killEvery = int.TryParse(Environment.GetEnvironmentVariable(KillsVariable), out int every) ? every : 0;
        long images = 0;
        while (Console.ReadLine() is { } line)
        {
            string[] parts = line.Split('\t');
            // Version 1's excuse is judged on the header the power loss left: the next writer below rewrites it.
            byte[]? header = version1 ? PublishingHeader(workload, parts[0]) : null;
            string verdict = (killEvery > 0 && images++ % killEvery == 0 ? KillsDuringRecovery(workload, parts[0], parts[1]) : null)
                ?? Verdict(workload, parts[0], parts[1], parts.Length > 2 ? parts[2] : null);

            if (version1 && verdict != "ok" && Version1Exposure(workload, header, parts[1], verdict) is { } exposure)
            {
                verdict = $"exposure: {exposure}: {verdict}";
            }

            Console.WriteLine($"{parts[0]}\t{verdict}");
            Console.Out.Flush();
        }

        if (killEvery > 0 && Environment.GetEnvironmentVariable(KillsVariable + "_LOG") is { Length: > 0 } log)
        {
            File.AppendAllText(log, $"{workload} {format}: {images:N0} images, every {killEvery}: {s_killPoints:N0} kill points\n");
        }

        return 0;
    }

    /// <summary>Set by .ci/power-loss for a quiet run: no writeback but the library's own.</summary>
    private const string QuietVariable = "LISTMMF_POWER_QUIET";

    /// <summary>
    /// Which of version 1's known exposures explains a finding, if one does: a flushed item lost is explained only where
    /// the first page holds it beside the header (a torn write of that page); anything else only where the count on
    /// disk of the file that publishes the items (a table's time column) is past the promised count, written back
    /// before its items (zeros past the flush then break a search, or a writer keeps them). Null for anything else,
    /// which stays a finding. Judged on <paramref name="header"/>, that file's first 16 bytes as the power loss left them
    /// (<see cref="PublishingHeader"/>), not as the check's own next writer rewrote them.
    /// </summary>
    private static string? Version1Exposure(string workload, byte[]? header, string mark, string verdict)
    {
        string[] promise = mark == "-" ? [] : mark.Split(':');
        // The excuses are version 1's: a file the crash left in version 2 (an upgrade's copy renamed into place) has none.
        if (header is null || BitConverter.ToInt32(header, 0) != 0)
        {
            return null;
        }

        long count = BitConverter.ToInt64(header, 8);
        long promised = promise.Length == 0 ? 0 : promise[0] switch
        {
            "flushed" => long.Parse(promise[1], CultureInfo.InvariantCulture),
            "window" => long.Parse(promise[2], CultureInfo.InvariantCulture) - long.Parse(promise[1], CultureInfo.InvariantCulture) + 1,
            "lifecycle" => long.Parse(promise[1], CultureInfo.InvariantCulture),
            _ => 0,
        };
        int itemSize = workload switch
        {
            "keyed" => 192,
            "append" or "window" or "lifecycle" => sizeof(long),
            _ => sizeof(int),
        };
        // A live count written back before the growth of its file was committed: the file refused, past its end.
        System.Text.RegularExpressions.Match pastEnd = System.Text.RegularExpressions.Regex.Match(verdict, @"the header claims ([\d,]+) items of \d+ bytes but the file is only");
        if (pastEnd.Success)
        {
            long claimed = long.Parse(pastEnd.Groups[1].Value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture);
            return claimed > promised ? "a count written back before its file's growth" : null;
        }

        System.Text.RegularExpressions.Match lostItem = System.Text.RegularExpressions.Regex.Match(verdict, @"^lost: flushed \w+ ([\d,]+) is");
        if (lostItem.Success)
        {
            long index = long.Parse(lostItem.Groups[1].Value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture);
            return 16 + ((index + 1) * itemSize) <= 4096 ? "the torn first page" : null;
        }

        if (count <= promised)
        {
            return null;
        }

        // A quiet run (LISTMMF_POWER_QUIET: no writeback but the library's flushes, which write the count last) leaves a
        // count ahead of its items only where the first page, count and items together, was torn across the file
        // system's blocks.
        if (Environment.GetEnvironmentVariable(QuietVariable) is { Length: > 0 })
        {
            System.Text.RegularExpressions.Match first = System.Text.RegularExpressions.Regex.Match(verdict, @"\b(?:item|row|value) ([\d,]+)");
            return first.Success && 16 + ((long.Parse(first.Groups[1].Value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture) + 1) * itemSize) <= 4096
                ? "the torn first page"
                : null;
        }

        return "a count written back before its items";
    }

    /// <summary>
    /// The image checked as the boot after the power loss: its readers agree (with the Python reader's counts,
    /// <paramref name="python"/>, where given), then <see cref="CheckImage"/>.
    /// </summary>
    private static string Verdict(string workload, string image, string mark, string? python)
    {
        try
        {
            return ReadersDisagree(workload, image, python) ?? CheckImage(workload, image, mark);
        }
        catch (CheckFinding finding)
        {
            return finding.Message;
        }
        catch (Exception exception) when (exception is not OutOfMemoryException)
        {
            return $"lost: {exception.GetType().Name}: {exception.Message}";
        }
    }

    /// <summary>
    /// Set to N, the checker runs the kill stage on every N-th image (1: every image) before its own check:
    /// <see cref="KillsDuringRecovery"/>.
    /// </summary>
    private const string KillsVariable = "LISTMMF_POWER_KILLS";

    /// <summary>
    /// The syscalls at which the kill stage kills the next writer's recovery: every one that writes a file, syncs, or
    /// changes a file's length or name (the runtime's own writes, to pipes and the console, are plain writes, left out).
    /// A kill keeps the page cache, so a store to a mapping needs no syscall to survive it: the steps of the recovery
    /// that a kill can split apart are these calls.
    /// </summary>
    private static readonly string[] KillSyscalls =
        ["pwrite64", "pwritev", "msync", "fsync", "fdatasync", "ftruncate", "fallocate", "rename", "renameat", "renameat2", "unlink"];

    /// <summary>
    /// Kills beside power loss: the next writer's open of a copy of the image (the recovery of another boot's file: the
    /// live count back to the durable count, this boot's session recorded), run in a child process of the same next
    /// boot under strace, is killed with SIGKILL instead of making its k-th call of one of <see cref="KillSyscalls"/>
    /// (strace's injection counts each syscall apart, per thread: error=EIO with signal=KILL, so the call is never
    /// made), for every k up to the calls a run without a kill made; each folder a kill leaves is checked as that boot
    /// checks any image (<see cref="Verdict"/>, the Python reader aside). Null where every one passes, else the first
    /// finding with the kill that led to it.
    /// </summary>
    private static string? KillsDuringRecovery(string workload, string image, string mark)
    {
        if (workload is "seal" or "seal-table")
        {
            return null;
        }

        string trial = image + "-kill";
        string trace = image + "-kill.strace";
        CopyFolder(image, trial);
        (int exit, string output) = RunRecovery(workload, trial, ["-o", trace, "-e", $"trace={string.Join(',', KillSyscalls)}"]);
        if (exit is not (0 or 2))
        {
            return $"lost: the next writer's recovery failed (exit {exit}): {output.Trim()} [{trial}]";
        }

        // Per syscall, the most calls one thread made: the kill points.
        Dictionary<string, int> calls = File.ReadLines(trace)
            .Select(line => line.Split(' ', 2, StringSplitOptions.RemoveEmptyEntries))
            .Where(parts => parts.Length == 2 && parts[1].IndexOf('(', StringComparison.Ordinal) > 0)
            .GroupBy(parts => (Thread: parts[0], Syscall: parts[1][..parts[1].IndexOf('(', StringComparison.Ordinal)]))
            .GroupBy(group => group.Key.Syscall, group => group.Count())
            .ToDictionary(group => group.Key, group => group.Max());
        File.Delete(trace);
        foreach (string syscall in KillSyscalls)
        {
            for (int k = 1; k <= calls.GetValueOrDefault(syscall); k++)
            {
                CopyFolder(image, trial);
                (exit, output) = RunRecovery(workload, trial, ["-o", "/dev/null", "-e", $"trace={syscall}", "-e", $"inject={syscall}:error=EIO:signal=KILL:when={k}"]);
                if (exit != 128 + 9)
                {
                    // A call the run without a kill made and this one did not (another thread's timing): no kill here.
                    continue;
                }

                s_killPoints++;
                if (Verdict(workload, trial, mark, python: null) is var verdict && verdict != "ok")
                {
                    // The folder is kept beside the image, as the check's own writer left it.
                    return $"{verdict} (after a kill of the next writer's recovery instead of its {syscall} number {k}) [{trial}]";
                }
            }
        }

        Directory.Delete(trial, recursive: true);
        return null;
    }

    /// <summary>Runs <c>power-recover</c> on <paramref name="folder"/> under strace with <paramref name="options"/>; returns its exit code and output.</summary>
    private static (int Exit, string Output) RunRecovery(string workload, string folder, string[] options)
    {
        var start = new System.Diagnostics.ProcessStartInfo("strace") { RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add("-f");
        start.ArgumentList.Add("-qq");
        foreach (string argument in options.Concat([Environment.ProcessPath!, typeof(PowerLoss).Assembly.Location, "power-recover", workload, folder]))
        {
            start.ArgumentList.Add(argument);
        }

        // No diagnostics pipes and no double mapping: the runtime's own unlinks and ftruncate are no kill points.
        start.Environment["DOTNET_EnableDiagnostics"] = "0";
        start.Environment["DOTNET_EnableWriteXorExecute"] = "0";
        using var child = System.Diagnostics.Process.Start(start)!;
        System.Threading.Tasks.Task<string> error = child.StandardError.ReadToEndAsync();
        string output = child.StandardOutput.ReadToEnd();
        child.WaitForExit();
        return (child.ExitCode, output + error.Result);
    }

    /// <summary>The kill points the kill stage ran, for its cost (printed at the end of a check).</summary>
    private static long s_killPoints;

    /// <summary>Makes <paramref name="target"/> a copy of <paramref name="source"/>, whatever it held before.</summary>
    private static void CopyFolder(string source, string target)
    {
        if (Directory.Exists(target))
        {
            Directory.Delete(target, recursive: true);
        }

        Directory.CreateDirectory(target);
        foreach (string directory in Directory.GetDirectories(source, "*", SearchOption.AllDirectories))
        {
            Directory.CreateDirectory(Path.Combine(target, Path.GetRelativePath(source, directory)));
        }

        foreach (string file in Directory.GetFiles(source, "*", SearchOption.AllDirectories))
        {
            File.Copy(file, Path.Combine(target, Path.GetRelativePath(source, file)));
        }
    }

    /// <summary>
    /// <c>power-recover WORKLOAD DIR</c>: as the boot after the power loss (the checker's), opens the workload's files
    /// in DIR as their next writer, which recovers them, and closes them: the child the kill stage kills. A file that
    /// is not there, or that the open refuses, is left alone (exit 0 or 2); the check after judges the folder.
    /// </summary>
    public static int Recover(string workload, string directory)
    {
        ListMmf.Storage.BootSession.Current ^= 0x9E3779B97F4A7C15;
        string list = Path.Combine(directory, ListName);
        try
        {
            switch (workload)
            {
                case "table" or "text-table" or "import-csv" or "import-parquet":
                    using (TimeSeriesTable.Open(Path.Combine(directory, TableName)))
                    {
                    }

                    break;
                case "catalog":
                    using (TimeSeriesCatalog.Open(Path.Combine(directory, CatalogName)))
                    {
                    }

                    break;
                case "widen" when File.Exists(list):
                    using (IntegerListMmf.Open(list))
                    {
                    }

                    break;
                case "series" or "series-writeback" when File.Exists(list):
                    using (new ListMmfTimeSeriesDateTimeSeconds(list, TimeSeriesOrder.Ascending))
                    {
                    }

                    break;
                case "keyed" when File.Exists(list):
                    using (new KeyedListMmf<Quote, long, ByTicks>(list, TimeSeriesOrder.Ascending))
                    {
                    }

                    break;
                case "append" or "window" or "empty" when File.Exists(list) && !ListMmfFileInfo.Read(list).IsSealed:
                    using (new ListMmf<long>(list))
                    {
                    }

                    break;
            }
        }
        catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException or ListMmfException)
        {
            return 2;
        }

        return 0;
    }

    /// <summary>
    /// The first 16 bytes of the file whose count publishes the workload's items (a table's time column), as the image
    /// holds them before any writer opens it; null where there is no such file or it is shorter.
    /// </summary>
    private static byte[]? PublishingHeader(string workload, string image)
    {
        string file = workload switch
        {
            "table" or "text-table" => Path.Combine(image, TableName, "time.mmf"),
            _ => Path.Combine(image, ListName),
        };
        if (!File.Exists(file))
        {
            return null;
        }

        byte[] header = new byte[16];
        using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        return stream.ReadAtLeast(header, header.Length, throwOnEndOfStream: false) < header.Length ? null : header;
    }

    /// <summary>A finding a check raised from inside a writer or a reader: its message is the verdict.</summary>
    private sealed class CheckFinding(string verdict) : Exception(verdict);

    /// <summary>
    /// Whether the images are version 1's, whose live count may reach the disk before its items (items past the last
    /// flush then read as zeros). In version 2 everything under the count a reader of another boot sees was synchronized
    /// before that count, so no item under it may read as zero.
    /// </summary>
    private static bool s_version1;

    /// <summary>
    /// Every reader of the image's files agrees, before any writer touches them: the mapped list, the header as
    /// <see cref="ListMmfFileInfo"/> reads it, a plain-file reader (<see cref="RandomAccessSortedReader{T}"/>) and the
    /// Python reader (<paramref name="python"/>: "NAME=COUNT;..." as crashimages.py read them) count the same items, or
    /// all refuse the file. A reader that believed another count than its peers would read other items after the power
    /// loss. Null where they agree.
    /// </summary>
    private static string? ReadersDisagree(string workload, string image, string? python)
    {
        Dictionary<string, string> pythonCounts = (python ?? "").Split(';', StringSplitOptions.RemoveEmptyEntries)
            .Select(entry => entry.Split('=', 2))
            .ToDictionary(entry => entry[0].Replace('/', Path.DirectorySeparatorChar), entry => entry[1]);
        string[] files = workload switch
        {
            "append" or "window" or "empty" or "lifecycle" or "seal" => [Path.Combine(image, ListName)],
            "series" or "series-writeback" => [Path.Combine(image, ListName)],
            "table" or "seal-table" => [Path.Combine(image, TableName, "time.mmf"), Path.Combine(image, TableName, "sequence.mmf")],
            "text-table" => [Path.Combine(image, TableName, "time.mmf"), Path.Combine(image, TableName, "venue.text.mmf")],
            _ => [],
        };
        foreach (string file in files.Where(File.Exists))
        {
            // Each reader is asked for the file's own data type, as a type of its size (a double list as doubles). A
            // sealed file has no plain-file reader; its mapped reader is SealedListMmf.
            ListMmfFileInfo header = ListMmfFileInfo.Read(file);
            (string mapped, string plain) = header switch
            {
                { DataType: DataType.Double } => ReaderCounts<double>(file, header),
                { ItemSize: sizeof(long) } => ReaderCounts<long>(file, header),
                { ItemSize: sizeof(byte) } => ReaderCounts<byte>(file, header),
                _ => ReaderCounts<int>(file, header),
            };
            string info = CountOrRefusal(() => ListMmfFileInfo.Read(file).Count);
            string inPython = python is null ? mapped : pythonCounts.GetValueOrDefault(Path.GetRelativePath(image, file), "not read");
            string tool = ToolInfoCount(file);
            if (mapped != info || mapped != plain || mapped != inPython || mapped != tool)
            {
                return $"undetected: the readers of '{Path.GetFileName(file)}' disagree: the mapped list {mapped}, the file " +
                    $"info {info}, the file reader {plain}, the Python reader {inPython}, listmmf info {tool}";
            }

            // verify reads every item through the file: it passes what the readers open, and refuses what they refuse.
            if (ToolVerifies(file) != (mapped != "refused"))
            {
                return $"undetected: listmmf verify {(mapped == "refused" ? "passes" : "refuses")} '{Path.GetFileName(file)}', " +
                    $"which the readers {(mapped == "refused" ? "refuse" : "open with " + mapped + " items")}";
            }
        }

        return null;
    }

    private static (string Mapped, string Plain) ReaderCounts<T>(string file, ListMmfFileInfo header)
        where T : unmanaged, System.Numerics.IComparisonOperators<T, T, bool>
    {
        if (header.IsSealed)
        {
            string count = CountOrRefusal(() => SealedCount<T>(file));
            return (count, count);
        }

        return (CountOrRefusal(() => MappedCount<T>(file, header.DataType)), CountOrRefusal(() => PlainCount<T>(file)));
    }

    private static long MappedCount<T>(string file, DataType type)
        where T : unmanaged
    {
        using var list = new ListMmf<T>(file, FileAccess.Read, ListMmfOptions.Default, type, requireDataType: true, description: null);
        return list.Count;
    }

    private static long SealedCount<T>(string file)
        where T : unmanaged
    {
        using var list = new SealedListMmf<T>(file);
        return list.Count;
    }

    private static long PlainCount<T>(string file)
        where T : unmanaged, System.Numerics.IComparisonOperators<T, T, bool>
    {
        using var reader = new RandomAccessSortedReader<T>(file);
        return reader.Count;
    }

    private static string CountOrRefusal(Func<long> count)
    {
        try
        {
            return count().ToString(CultureInfo.InvariantCulture);
        }
        catch (ListMmfException)
        {
            return "refused";
        }
    }

    private static string CheckImage(string workload, string image, string mark)
    {
        string[] promise = mark == "-" ? [] : mark.Split(':');
        return workload switch
        {
            "append" => CheckAppend(Path.Combine(image, ListName), promise),
            "window" => CheckWindow(Path.Combine(image, ListName), promise),
            "table" or "text-table" => CheckTable(Path.Combine(image, TableName), promise, RowsOf(workload)),
            "widen" => CheckWiden(Path.Combine(image, ListName), promise),
            "series" or "series-writeback" => CheckSeries(Path.Combine(image, ListName), promise),
            "keyed" => CheckKeyed(Path.Combine(image, ListName), promise),
            "empty" => CheckEmpty(image, promise),
            "lifecycle" => CheckLifecycle(Path.Combine(image, ListName), promise),
            "seal" => CheckSeal(Path.Combine(image, ListName), promise),
            "seal-table" => CheckSealedTable(Path.Combine(image, TableName), promise),
            "import-csv" or "import-parquet" => CheckImport(Path.Combine(image, TableName), promise),
            "catalog" => CheckCatalog(Path.Combine(image, CatalogName), promise),
            _ => throw new ArgumentException($"unknown workload '{workload}'"),
        };
    }

    /// <summary>
    /// Before the create returned, the file may be missing, or refused with the library's exception; never a crash.
    /// Returns null when the check may go on with the file.
    /// </summary>
    private static string? BeforeCreation(string path, string[] promise, Func<string?> open)
    {
        if (promise.Length > 0)
        {
            return null;
        }

        try
        {
            return open() ?? "ok";
        }
        catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException or ListMmfException)
        {
            return "ok";
        }
    }

    /// <summary>
    /// The shape of the checks whose mark is "flushed:N": before the create returned, anything but a crash; after it,
    /// a reader finds the flushed items, the next writer goes on after the items as written, appends one and flushes,
    /// and a reader then finds everything up to it.
    /// </summary>
    /// <param name="read">Reads the image, every item below the count it is given promised.</param>
    /// <param name="appendAsNextWriter">Appends as the next writer and flushes; returns the items it promises.</param>
    private static string CheckFlushed(string path, string[] promise, Func<long, string?> read, Func<long> appendAsNextWriter)
    {
        if (BeforeCreation(path, promise, () => read(0)) is { } early)
        {
            return early;
        }

        return read(Flushed(promise)) ?? read(appendAsNextWriter()) ?? "ok";
    }

    private static long Flushed(string[] promise) =>
        promise[0] == "flushed" ? long.Parse(promise[1], CultureInfo.InvariantCulture) : 0;

    /// <summary>
    /// Every item below <paramref name="flushed"/> as written; past it each as written, or in version 1 zero (a page the
    /// system had not written back before the count), never anything else.
    /// </summary>
    private static string? CheckItems<T>(string what, long count, long flushed, Func<long, T> read, Func<long, T> written, T zero)
    {
        if (count < flushed)
        {
            return $"lost: {count:N0} {what}s, but {flushed:N0} were flushed";
        }

        for (long i = 0; i < count; i++)
        {
            T item = read(i);
            if (EqualityComparer<T>.Default.Equals(item, written(i)))
            {
                continue;
            }

            if (i < flushed)
            {
                return $"lost: flushed {what} {i:N0} is {item}, not as written";
            }

            if (!s_version1)
            {
                return $"undetected: {what} {i:N0}, past the last flush and under the count of {count:N0} a reader sees, is {item}, not as written";
            }

            if (!EqualityComparer<T>.Default.Equals(item, zero))
            {
                return $"undetected: {what} {i:N0}, past the last flush, is {item}, which was never written";
            }
        }

        return null;
    }

    /// <summary>
    /// Where the next writer goes on. Version 1: after the items from the first that are as written (its count may
    /// have reached the disk before them). Version 2: at the count it opened with, which a writer of another boot takes
    /// from the durable count; an item under it not as written is a finding, since trimming it would hide a stale live
    /// count.
    /// </summary>
    private static long WrittenPrefix<T>(long count, Func<long, T> read, Func<long, T> written)
    {
        long prefix = 0;
        while (prefix < count && EqualityComparer<T>.Default.Equals(read(prefix), written(prefix)))
        {
            prefix++;
        }

        if (!s_version1 && prefix < count)
        {
            throw new CheckFinding($"undetected: the next writer opened with {count:N0} items, and item {prefix:N0} is " +
                $"{read(prefix)}, not as written");
        }

        return prefix;
    }

    private static string CheckAppend(string path, string[] promise) => CheckFlushed(
        path,
        promise,
        flushed =>
        {
            using var reader = new ListMmf<long>(path, FileAccess.Read);
            return CheckItems("item", reader.Count, flushed, i => reader[i], Program.ValueAt, 0L);
        },
        () =>
        {
            using var writer = new ListMmf<long>(path);
            long count = WrittenPrefix(writer.Count, i => writer[i], Program.ValueAt);
            writer.Truncate(count);
            writer.Add(Program.ValueAt(count));
            writer.Flush();
            return count + 1;
        });

    private static string CheckWindow(string path, string[] promise)
    {
        if (BeforeCreation(path, promise, () => ReadWindow(path, 0, -1)) is { } early)
        {
            return early;
        }

        long first = promise[0] == "window" ? long.Parse(promise[1], CultureInfo.InvariantCulture) : 0;
        long last = promise[0] == "window" ? long.Parse(promise[2], CultureInfo.InvariantCulture) : -1;
        if (ReadWindow(path, first, last) is { } problem)
        {
            return problem;
        }

        using (var writer = new ListMmf<long>(path))
        {
            long count = writer.Count;
            long lastValue = count == 0 ? -1 : writer[0] + count - 1;
            while (s_version1 && count > 0 && writer[count - 1] != lastValue)
            {
                count--;
                lastValue--;
            }

            for (long i = 0; !s_version1 && i < count; i++)
            {
                if (writer[i] != writer[0] + i)
                {
                    return $"undetected: the next writer opened with {count:N0} items, and item {i:N0} is {writer[i]}, not {writer[0] + i}";
                }
            }

            writer.Truncate(count);
            writer.Add(lastValue + 1);
            writer.Flush();
        }

        return ReadWindow(path, first, last) ?? "ok";
    }

    /// <summary>
    /// A window promised to hold <c>[first, last]</c>: what the image holds starts at or after
    /// <paramref name="first"/> (a later TruncateBeginning may have been made durable), and holds every value from its
    /// start to <paramref name="last"/> consecutively; values past the last flush are consecutive (or, in version 1, zero).
    /// </summary>
    private static string? ReadWindow(string path, long first, long last)
    {
        using var reader = new ListMmf<long>(path, FileAccess.Read);
        long count = reader.Count;
        if (count == 0)
        {
            return last < first ? null : $"lost: the window is empty, but [{first:N0}, {last:N0}] was promised";
        }

        long start = reader[0];
        if (start < first)
        {
            return $"undetected: the window starts at {start:N0}, before {first:N0}, which a TruncateBeginning that returned dropped";
        }

        long promisedItems = last - start + 1;
        if (count < promisedItems)
        {
            return $"lost: the window [{start:N0}, ...] holds {count:N0} items, but values up to {last:N0} were flushed";
        }

        for (long i = 0; i < count; i++)
        {
            long item = reader[i];
            if (item == start + i || (s_version1 && item == 0 && i >= promisedItems))
            {
                continue;
            }

            return i < promisedItems
                ? $"lost: item {i:N0} is {item}, not {start + i}"
                : $"undetected: item {i:N0}, past the last flush and under the count of {count:N0} a reader sees, is {item}, not {start + i}";
        }

        return null;
    }

    /// <summary>What a table workload writes in each row and how a check tells a row as written: the tick table's, or the text table's.</summary>
    private sealed record TableRows(Func<TimeSeriesTableSchema> Schema, Action<TimeSeriesTable, long> AddRow, Func<TimeSeriesTable, long, bool> IsIntact);

    private static readonly TableRows TickRows = new(TickTable.Schema, TickTable.AddRow, TickTable.IsIntact);

    private static TableRows RowsOf(string workload) =>
        workload == "text-table" ? new(TextTickTable.Schema, TextTickTable.AddRow, TextTickTable.IsIntact) : TickRows;

    private static string CheckTable(string folder, string[] promise) => CheckTable(folder, promise, TickRows);

    private static string CheckTable(string folder, string[] promise, TableRows shape)
    {
        if (promise.Length == 0)
        {
            try
            {
                using var early = TimeSeriesTable.Open(folder, FileAccess.Read);
                return ReadTable(early, 0, shape) ?? "ok";
            }
            catch (Exception exception) when (exception is FileNotFoundException or DirectoryNotFoundException or ListMmfException)
            {
                return "ok";
            }
        }

        long flushed = Flushed(promise);
        try
        {
            // A reader may be refused a table whose value column is behind its time column; the next writer repairs it.
            using var reader = TimeSeriesTable.Open(folder, FileAccess.Read);
            if (ReadTable(reader, flushed, shape) is { } problem)
            {
                return problem;
            }
        }
        catch (ListMmfFormatException exception) when (s_version1 && exception.Message.Contains("rows its time column publishes", StringComparison.Ordinal))
        {
            // A version 1 reader is refused a table whose value column holds fewer values than the time column's rows,
            // what a power loss can leave of rows that were not flushed; the next writer repairs it, below. Version 2
            // raises the value columns' durable counts before the time column's, so that a reader is never refused.
        }

        long rows;
        using (var writer = TimeSeriesTable.Open(folder))
        {
            if (ReadTable(writer, flushed, shape) is { } problem)
            {
                return problem;
            }

            rows = writer.RowCount;
            while (rows > 0 && !shape.IsIntact(writer, rows - 1))
            {
                rows--;
            }

            if (rows < writer.RowCount)
            {
                return $"undetected: row {rows:N0}, past the last flush, is not a row written, and the writer kept it";
            }

            shape.AddRow(writer, rows);
            writer.Flush();
        }

        using var after = TimeSeriesTable.Open(folder, FileAccess.Read);
        return after.RowCount == rows + 1 && shape.IsIntact(after, rows)
            ? ReadTable(after, flushed, shape) ?? "ok"
            : $"lost: the next writer's row and flush did not show ({after.RowCount:N0} rows)";
    }

    /// <summary>
    /// Every row below <paramref name="flushed"/> whole; every row past it whole too, or in version 1 each value as
    /// written or zero (a page not written back before the count); every row checked, not up to the first damaged one;
    /// then searches for times across all the rows.
    /// </summary>
    private static string? ReadTable(TimeSeriesTable table, long flushed) => ReadTable(table, flushed, TickRows);

    private static string? ReadTable(TimeSeriesTable table, long flushed, TableRows shape)
    {
        long rows = table.RowCount;
        if (rows < flushed)
        {
            return $"lost: the table has {rows:N0} rows, but {flushed:N0} were flushed";
        }

        for (long row = 0; row < rows; row++)
        {
            if (shape.IsIntact(table, row))
            {
                continue;
            }

            if (row < flushed)
            {
                return $"lost: flushed row {row:N0} is not as written";
            }

            if (!s_version1)
            {
                return $"undetected: row {row:N0}, past the last flush and under the {rows:N0} rows a reader sees, is not as written";
            }

            if (!IsWrittenOrZero(table, row))
            {
                return $"undetected: row {row:N0}, past the last flush, holds a value never written";
            }
        }

        // Three rows a second: a search for a row's time lands on the first row of its second.
        return SearchesFind(
            "the time of row", rows, flushed, row => table.TimeAt(row) == TickTable.Time(row), row => table.LowerBound(TickTable.Time(row)), row => row / 3 * 3);
    }

    /// <summary>Version 1, a row past the last flush: each of its values as written or zero.</summary>
    private static bool IsWrittenOrZero(TimeSeriesTable table, long row)
    {
        DateTime time = table.TimeAt(row);
        double price = table.Column<double>("price")[row];
        int size = table.Column<int>("size")[row];
        long sequence = table.Column<long>("sequence")[row];
        return (time == TickTable.Time(row) || time == DateTime.UnixEpoch) && (price == TickTable.Price(row) || price == 0)
            && (size == TickTable.Size(row) || size == 0) && (sequence == TickTable.Sequence(row) || sequence == 0);
    }

    /// <summary>
    /// A search for the key of items across the whole of the <paramref name="count"/> a reader sees (every one of a
    /// stride that covers the range, the last flushed one and the last) lands where <paramref name="expected"/> says.
    /// Only keys as written are searched: a version 1 key past the flush may read as zero, which a check before this
    /// has judged.
    /// </summary>
    private static string? SearchesFind(
        string what, long count, long flushed, Func<long, bool> keyAsWritten, Func<long, long> search, Func<long, long> expected)
    {
        long stride = Math.Max(1, count / 2_048);
        var indexes = new List<long>();
        for (long i = 0; i < count; i += stride)
        {
            indexes.Add(i);
        }

        indexes.Add(Math.Min(flushed, count) - 1);
        indexes.Add(count - 1);
        foreach (long index in indexes)
        {
            if (index < 0 || !keyAsWritten(index))
            {
                continue;
            }

            long found = search(index);
            if (found != expected(index))
            {
                return $"{(index < flushed ? "lost" : "undetected")}: LowerBound of {what} {index:N0} is {found:N0}, not {expected(index):N0}";
            }
        }

        return null;
    }

    private static string CheckWiden(string path, string[] promise) => CheckFlushed(
        path,
        promise,
        flushed =>
        {
            using var reader = IntegerListMmf.Open(path, FileAccess.Read);
            return CheckItems("value", reader.Count, flushed, i => reader[i], WidenAt, 0L);
        },
        () =>
        {
            using var writer = IntegerListMmf.OpenSmallest(path);
            long count = WrittenPrefix(writer.Count, i => writer[i], WidenAt);
            writer.Truncate(count);
            writer.Add(WidenAt(count));
            writer.Flush();
            return count + 1;
        });

    /// <summary>
    /// A seal or an unseal interrupted anywhere leaves one whole form or the other, never neither: once the items were
    /// flushed, the path holds either the appendable list or the sealed one, with every item, and the sealed one
    /// passes <c>Verify</c>. Once the last seal returned, the path holds the sealed form.
    /// </summary>
    /// <summary>
    /// The empty workload: once the window was emptied, the list holds no item, in whichever form (appendable or
    /// sealed) the seal and unseal after it left; before, its flushed items or none. The upgraded file, once created,
    /// is an empty list of longs, version 1 or 2.
    /// </summary>
    private static string CheckEmpty(string image, string[] promise)
    {
        string path = Path.Combine(image, ListName);
        if (BeforeCreation(path, promise, () => ReadAsEmptyOrFlushed(path, emptied: false, 0)) is { } early)
        {
            return early;
        }

        if (!File.Exists(path))
        {
            return "lost: the path holds no file";
        }

        bool emptied = promise[0] == "empty";
        if (ReadAsEmptyOrFlushed(path, emptied, Flushed(promise)) is { } problem)
        {
            return problem;
        }

        string old = Path.Combine(image, "old.bin");
        if (promise is ["empty", "old-created" or "upgraded"])
        {
            if (!File.Exists(old))
            {
                return "lost: the empty list to upgrade is gone";
            }

            using var upgraded = new ListMmf<long>(old, FileAccess.Read);
            if (upgraded.Count != 0)
            {
                return $"undetected: the upgraded empty list opens with {upgraded.Count:N0} items";
            }

            if (promise[1] == "upgraded" && ListMmfFileInfo.Read(old).Version != 2)
            {
                return "lost: the upgrade returned, and the file is not version 2";
            }
        }

        return "ok";
    }

    /// <summary>
    /// The list as a list of longs, appendable or sealed: no item once <paramref name="emptied"/>, else its
    /// <paramref name="flushed"/> items as written or none at all (the emptying under way).
    /// </summary>
    private static string? ReadAsEmptyOrFlushed(string path, bool emptied, long flushed)
    {
        if (ListMmfFileInfo.Read(path).IsSealed)
        {
            using var sealedList = new SealedListMmf<long>(path);
            return sealedList.Count == 0 ? null : $"undetected: the sealed empty list holds {sealedList.Count:N0} items";
        }

        using var reader = new ListMmf<long>(path, FileAccess.Read);
        if (reader.Count == 0)
        {
            return null;
        }

        return emptied
            ? $"lost: the list was emptied, and it opens with {reader.Count:N0} items"
            : CheckItems("item", reader.Count, flushed, i => reader[i], Program.ValueAt, 0L);
    }

    private static string CheckSeal(string path, string[] promise)
    {
        if (BeforeCreation(path, promise, () => ReadSealWorkload(path, 0)) is { } early)
        {
            return early;
        }

        bool flushed = promise[0] != "created";
        if (!File.Exists(path))
        {
            return flushed ? "lost: the path holds no file" : "ok";
        }

        bool isSealed = ListMmfFileInfo.Read(path).IsSealed;
        if (promise[0] == "final" && !isSealed)
        {
            return "lost: the last seal returned, and the path holds the appendable list";
        }

        if (isSealed)
        {
            using var sealedList = new SealedListMmf<double>(path);
            sealedList.Verify();
            if (MissingCodecs(path) is { } missing)
            {
                return missing;
            }

            return CheckItems("sealed item", sealedList.Count, SealedItems, i => sealedList[i], SealValueAt, 0.0) is { } wrong
                ? wrong
                : sealedList.Count == SealedItems ? "ok" : $"undetected: {sealedList.Count:N0} sealed items, not {SealedItems:N0}";
        }

        return ReadSealWorkload(path, flushed ? SealedItems : 0) ?? "ok";
    }

    /// <summary>
    /// What the seal workload's sealed list lacks of what it is there to prove: blocks of the tick codecs and of the
    /// decimal codecs, each put in place by the replacement; null where it holds both.
    /// </summary>
    private static string? MissingCodecs(string path)
    {
        using SealedFile file = SealedFile.Open(path);
        var codecs = new HashSet<SealedCodec>();
        for (long block = 0; block < file.BlockCount; block++)
        {
            codecs.Add(file.Block(block).Codec);
        }

        return codecs.Overlaps([SealedCodec.Ticks, SealedCodec.TickDeltas]) && codecs.Overlaps([SealedCodec.Decimals, SealedCodec.DecimalDeltas])
            ? null
            : $"harness: the sealed list's blocks take only the codecs {string.Join(", ", codecs)}, not both ticks and decimals";
    }

    /// <summary>
    /// A table's seal or unseal interrupted anywhere leaves a table that opens, in any mix of the two forms, with
    /// every row as written and every sealed column's checksums whole; once the last seal returned, every column is
    /// sealed. Unsealed again, the next writer appends a row after them.
    /// </summary>
    private static string CheckSealedTable(string folder, string[] promise)
    {
        // Until the flush, the workload is the table workload's, and so is what it promised.
        if (promise.Length == 0 || promise[0] == "created")
        {
            return CheckTable(folder, promise);
        }

        using (var reader = TimeSeriesTable.Open(folder, FileAccess.Read))
        {
            reader.Verify();
            if (promise[0] == "final" && reader.Columns.FirstOrDefault(column => !column.IsSealed) is { } appendable)
            {
                return $"lost: the last seal returned, and column '{appendable.Name}' is appendable";
            }

            if (ReadTable(reader, SealedRows) is { } problem)
            {
                return problem;
            }

            if (reader.RowCount != SealedRows)
            {
                return $"undetected: the table has {reader.RowCount:N0} rows, not {SealedRows:N0}";
            }
        }

        TimeSeriesTable.Unseal(folder);
        using (var writer = TimeSeriesTable.Open(folder))
        {
            TickTable.AddRow(writer, SealedRows);
            writer.Flush();
        }

        using var after = TimeSeriesTable.Open(folder, FileAccess.Read);
        return after.RowCount == SealedRows + 1 && TickTable.IsIntact(after, SealedRows)
            ? ReadTable(after, SealedRows + 1) ?? "ok"
            : $"lost: the next writer's row and flush did not show ({after.RowCount:N0} rows)";
    }

    private static string? ReadSealWorkload(string path, long flushed)
    {
        using var reader = new ListMmf<double>(path, FileAccess.Read);
        return CheckItems("item", reader.Count, flushed, i => reader[i], SealValueAt, 0.0);
    }

    /// <summary>The times, and <c>LowerBound</c> across them.</summary>
    private static string CheckSeries(string path, string[] promise) => CheckFlushed(
        path,
        promise,
        flushed =>
        {
            using var reader = ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, TimeSeriesOrder.Ascending);
            return CheckItems("time", reader.Count, flushed, i => reader[i], SeriesTime, DateTime.UnixEpoch)
                ?? SearchesFind("time", reader.Count, flushed, i => reader[i] == SeriesTime(i), i => reader.LowerBound(SeriesTime(i)), i => i);
        },
        () =>
        {
            using var writer = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending);
            long count = WrittenPrefix(writer.Count, i => writer[i], SeriesTime);
            writer.Truncate(count);
            writer.Add(SeriesTime(count));
            writer.Flush();
            return count + 1;
        });

    /// <summary>One second apart, from 2024-01-02.</summary>
    private static DateTime SeriesTime(long index) => TickTable.Start.AddSeconds(index);

    /// <summary>The rows, all 192 bytes of each, so that a torn row shows.</summary>
    private static string CheckKeyed(string path, string[] promise) => CheckFlushed(
        path,
        promise,
        flushed =>
        {
            using var reader = new KeyedListMmf<Quote, long, ByTicks>(path, TimeSeriesOrder.Ascending, FileAccess.Read);
            return CheckItems("row", reader.Count, flushed, i => reader[i], Quote.At, default(Quote))
                ?? SearchesFind("key", reader.Count, flushed, i => reader[i].Ticks == Quote.At(i).Ticks, i => reader.LowerBound(Quote.At(i).Ticks), i => i);
        },
        () =>
        {
            using var writer = new KeyedListMmf<Quote, long, ByTicks>(path, TimeSeriesOrder.Ascending);
            long count = WrittenPrefix(writer.Count, i => writer[i], Quote.At);
            writer.List.Truncate(count);
            writer.Add(Quote.At(count));
            writer.Flush();
            return count + 1;
        });

    /// <summary>
    /// An import that returned left the whole table (the mark); one interrupted leaves no table, or one whose rows are
    /// whole, which the next writer can append to.
    /// </summary>
    private static string CheckImport(string folder, string[] promise)
    {
        long imported = promise.Length > 0 && promise[0] == "imported" ? long.Parse(promise[1], CultureInfo.InvariantCulture) : 0;
        try
        {
            using var reader = TimeSeriesTable.Open(folder, FileAccess.Read);
            if (ReadTable(reader, imported) is { } problem)
            {
                return problem;
            }
        }
        catch (Exception exception) when (imported == 0 && exception is FileNotFoundException or DirectoryNotFoundException or ListMmfException)
        {
            return "ok";
        }

        return CheckTable(folder, ["flushed", imported.ToString(CultureInfo.InvariantCulture)]);
    }

    /// <summary>The input of the import workloads: the tick table's first <paramref name="rows"/> rows as CSV.</summary>
    public static int WriteCsv(string path, long rows)
    {
        using var writer = new StreamWriter(path);
        writer.WriteLine("time,price,size,sequence");
        for (long row = 0; row < rows; row++)
        {
            long seconds = (long)(TickTable.Time(row) - DateTime.UnixEpoch).TotalSeconds;
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{seconds},{TickTable.Price(row):R},{TickTable.Size(row)},{TickTable.Sequence(row)}"));
        }

        return 0;
    }

    /// <summary>The widen workload's value at <paramref name="index"/>, of the width its round needed.</summary>
    private static long WidenAt(long index) => WidenValue(index, LimitAt(index));

    /// <summary>The widen workload's value at <paramref name="index"/>: below <paramref name="limit"/>, never zero.</summary>
    private static long WidenValue(long index, long limit) => 1 + (long)((ulong)Program.ValueAt(index) % (ulong)(limit - 1));

    private static long LimitAt(long index) => index switch
    {
        < 2_000 => 200,
        < 4_000 => 30_000,
        < 6_000 => 2_000_000,
        _ => 1_000_000_000,
    };

    /// <summary>A 192-byte quote, as the engine stores them: a key, then fields that are a function of it.</summary>
    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential, Size = 192)]
    private struct Quote : IEquatable<Quote>
    {
        public long Ticks;
        public double Bid;
        public double Ask;
        public long Sequence;

        public static Quote At(long index) => new()
        {
            Ticks = TickTable.Start.Ticks + (index * TimeSpan.TicksPerMillisecond),
            Bid = 4500 + ((index % 400) * 0.25),
            Ask = 4500.25 + ((index % 400) * 0.25),
            Sequence = Program.ValueAt(index),
        };

        public readonly bool Equals(Quote other) =>
            Ticks == other.Ticks && Bid.Equals(other.Bid) && Ask.Equals(other.Ask) && Sequence == other.Sequence
            && TailIsZero(this) && TailIsZero(other);

        public override readonly bool Equals(object? obj) => obj is Quote other && Equals(other);

        public override readonly int GetHashCode() => Ticks.GetHashCode();

        /// <summary>The 160 bytes after the fields: zero as written, so a torn row shows there too.</summary>
        private static unsafe bool TailIsZero(Quote quote)
        {
            byte* bytes = (byte*)&quote;
            for (int i = 32; i < 192; i++)
            {
                if (bytes[i] != 0)
                {
                    return false;
                }
            }

            return true;
        }
    }

    private struct ByTicks : IKeySelector<Quote, long>
    {
        public static long KeyOf(in Quote row) => row.Ticks;
    }
}
