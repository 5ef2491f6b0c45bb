using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;

namespace ListMmf.TestHost;

/// <summary>
/// Child processes for the multi-process tests. Items are Int64 and item i is <see cref="ValueAt"/>(i), so any
/// process can check any item it sees.
/// <list type="bullet">
/// <item><c>append PATH COUNT</c>: the writer; appends items COUNT at a time in varying batches, forever when COUNT is -1 (until killed).</item>
/// <item><c>verify PATH EXPECTED TIMEOUT_MS BACKEND</c>: a reader; waits for the file, then checks every item as it is published until EXPECTED are seen.</item>
/// <item><c>hold PATH</c>: opens the file as its writer, prints "holding", and keeps it until standard input closes.</item>
/// <item><c>fill PATH</c>: appends until growing the file fails (run it under a file-size limit), then prints the count it reached.</item>
/// <item><c>create PATH</c>: creates the file as its writer and closes it.</item>
/// <item><c>flush PATH</c>: opens the existing file as its writer, appends 10,000 items and flushes.</item>
/// <item><c>check PATH</c>: opens the file as a reader and verifies it (<see cref="ListMmf{T}.Verify"/>).</item>
/// <item><c>stress-write PATH</c> and <c>stress-read PATH OPENS GENERATIONS</c>: see <see cref="Stress"/>.</item>
/// <item><c>table-write</c>, <c>table-read</c> and <c>table-crash</c>: see <see cref="Tables"/>.</item>
/// <item><c>int-widen</c>, <c>int-truncate</c> and <c>int-read</c>: see <see cref="Integers"/>.</item>
/// <item><c>series-truncate</c> and <c>series-read</c>: see <see cref="SeriesTruncation"/>.</item>
/// <item><c>replace-kill</c>, <c>truncate-then-append</c> and <c>widen-then-append</c>: see <see cref="ReplacementFaults"/>.</item>
/// <item><c>tick-days DIR</c>: see <see cref="TickDays"/>.</item>
/// <item><c>catalog-write</c> and <c>catalog-follow</c>: see <see cref="CatalogWorld"/>.</item>
/// <item><c>power-write</c>, <c>power-check</c>, <c>power-recover</c> and <c>power-csv</c>: see <see cref="PowerLoss"/>.</item>
/// <item><c>seal PATH</c> and <c>unseal PATH</c>: seals a list, or a table folder, or unseals it; prints how many files changed.</item>
/// <item><c>take-turns PATH TURNS</c>: opens the file as its writer TURNS times, each time appending one item and closing
/// it; a refused open (another writer) is tried again. Prints "turns=TURNS refused=R".</item>
/// </list>
/// Exit codes: 0 done, 1 a wrong item, 2 timed out, 3 bad arguments or another I/O error, 4 a ListMmfException
/// (message on standard error), 5 a ListMmfLockedException.
/// </summary>
public static class Program
{
    public static long ValueAt(long index) => (long)((ulong)(index + 1) * 0x9E3779B97F4A7C15UL);

    public static int Main(string[] args)
    {
        try
        {
            return args switch
            {
                ["append", string path, string count] => Append(path, long.Parse(count, CultureInfo.InvariantCulture)),
                ["verify", string path, string expected, string timeout, string backend] => Verify(path, long.Parse(expected, CultureInfo.InvariantCulture), TimeSpan.FromMilliseconds(double.Parse(timeout, CultureInfo.InvariantCulture)), Enum.Parse<MappingBackend>(backend)),
                ["hold", string path] => Hold(path),
                ["catalog-write", string directory, string seed] => CatalogWorld.WriteCatalog(directory, int.Parse(seed, CultureInfo.InvariantCulture)),
                ["catalog-follow", string directory, string seed, string seconds] => CatalogWorld.FollowCatalog(directory,
                    int.Parse(seed, CultureInfo.InvariantCulture), TimeSpan.FromSeconds(double.Parse(seconds, CultureInfo.InvariantCulture))),
                ["fill", string path] => Fill(path),
                ["create", string path] => Create(path),
                ["flush", string path] => Flush(path),
                ["table-flush", string directory] => FlushTable(directory),
                ["check", string path] => Check(path),
                ["stress-write", string path] => Stress.Write(path),
                ["stress-read", string path, string opens, string generations] => Stress.Read(path, long.Parse(opens, CultureInfo.InvariantCulture), int.Parse(generations, CultureInfo.InvariantCulture)),
                ["table-write", string directory, string rows, string seconds, .. string[] progress] => Tables.Write(directory, long.Parse(rows, CultureInfo.InvariantCulture), progress, TimeSpan.FromSeconds(double.Parse(seconds, CultureInfo.InvariantCulture))),
                ["table-read", string directory, string rows, string seconds, string progress] => Tables.Read(directory, long.Parse(rows, CultureInfo.InvariantCulture), TimeSpan.FromSeconds(double.Parse(seconds, CultureInfo.InvariantCulture)), progress),
                ["table-crash", string directory, string rows] => Tables.Crash(directory, long.Parse(rows, CultureInfo.InvariantCulture)),
                ["int-widen", string path] => Integers.Widen(path),
                ["int-truncate", string path] => Integers.Truncate(path),
                ["int-read", string path, string kind] => Integers.Read(path, kind),
                ["series-truncate", string path] => SeriesTruncation.Write(path),
                ["series-read", string path] => SeriesTruncation.Read(path),
                ["replace-kill", string path, string backend, string step, string round] => ReplacementFaults.KillLoop(path, Enum.Parse<MappingBackend>(backend), step, int.Parse(round, CultureInfo.InvariantCulture)),
                ["truncate-then-append", string path] => ReplacementFaults.TruncateThenAppend(path),
                ["widen-then-append", string path] => ReplacementFaults.WidenThenAppend(path),
                ["tick-days", string directory] => TickDays.Write(directory),
                ["power-write", string workload, string directory, string format] => PowerLoss.Write(workload, directory, format),
                ["power-check", string workload, string format] => PowerLoss.Check(workload, format),
                ["power-recover", string workload, string directory] => PowerLoss.Recover(workload, directory),
                ["power-csv", string path, string rows] => PowerLoss.WriteCsv(path, long.Parse(rows, CultureInfo.InvariantCulture)),
                ["seal", string path] => Replace(path, TimeSeriesTable.Seal, SealedListMmf.Seal),
                ["unseal", string path] => Replace(path, TimeSeriesTable.Unseal, SealedListMmf.Unseal),
                ["take-turns", string path, string turns] => TakeTurns(path, int.Parse(turns, CultureInfo.InvariantCulture)),
                _ => Usage(),
            };
        }
        catch (ListMmfLockedException exception)
        {
            Console.Error.WriteLine(exception.Message);
            return 5;
        }
        catch (ListMmfException exception)
        {
            Console.Error.WriteLine(exception.Message);
            return 4;
        }
        catch (Exception exception) when (exception is IOException or ArgumentException or FormatException)
        {
            Console.Error.WriteLine(exception.Message);
            return 3;
        }
    }

    private static int Append(string path, long count)
    {
        using var list = new ListMmf<long>(path);
        Console.WriteLine("writing");
        Console.Out.Flush();
        var batch = new long[97];
        var random = new Random(Environment.ProcessId);
        while (count < 0 || list.Count < count)
        {
            long next = list.Count;
            int size = (int)Math.Min(random.Next(1, batch.Length), count < 0 ? batch.Length : count - next);
            for (int i = 0; i < size; i++)
            {
                batch[i] = ValueAt(next + i);
            }

            if (size == 1)
            {
                list.Add(batch[0]);
            }
            else
            {
                list.AddRange(batch.AsSpan(0, size));
            }
        }

        return 0;
    }

    /// <summary>
    /// Two writers at once would both append at the same count, and the file would end with fewer items than turns
    /// taken. Each turn reads the count before it writes, so that such an overlap shows.
    /// </summary>
    private static int TakeTurns(string path, int turns)
    {
        long refused = 0;
        for (int turn = 0; turn < turns;)
        {
            try
            {
                using var list = new ListMmf<long>(path);
                list.Add(ValueAt(list.Count));
                turn++;
            }
            catch (ListMmfLockedException)
            {
                refused++;
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"turns={turns} refused={refused}"));
        return 0;
    }

    private static int Verify(string path, long expected, TimeSpan timeout, MappingBackend backend)
    {
        var clock = Stopwatch.StartNew();
        while (!File.Exists(path))
        {
            if (clock.Elapsed > timeout)
            {
                Console.Error.WriteLine($"{path} did not appear within {timeout}");
                return 2;
            }

            System.Threading.Thread.Sleep(1);
        }

        using var list = new ListMmf<long>(path, FileAccess.Read, new ListMmfOptions { Backend = backend });
        long verified = 0;
        var idle = new System.Threading.SpinWait();
        while (verified < expected)
        {
            long count = list.Count;
            if (count == verified)
            {
                // Back off (spin, then yield, then sleep briefly) so that polling readers leave the writer a core.
                idle.SpinOnce();
            }

            for (; verified < count; verified++)
            {
                long item = list[verified];
                if (item != ValueAt(verified))
                {
                    Console.Error.WriteLine($"item {verified} is {item}, expected {ValueAt(verified)} (count {count})");
                    return 1;
                }
            }

            if (clock.Elapsed > timeout)
            {
                Console.Error.WriteLine($"saw {verified} of {expected} items within {timeout}");
                return 2;
            }
        }

        Console.WriteLine($"verified {verified}");
        return 0;
    }

    private static int Fill(string path)
    {
        using var list = new ListMmf<long>(path);
        try
        {
            for (long i = 0; ; i++)
            {
                list.Add(ValueAt(i));
            }
        }
        catch (ListMmfException exception)
        {
            Console.WriteLine(list.Count.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine(exception.Message);
            return 0;
        }
    }

    private static int Create(string path)
    {
        using var list = new ListMmf<long>(path);
        return 0;
    }

    private static int Flush(string path)
    {
        using var list = new ListMmf<long>(path);
        for (int i = 0; i < 10_000; i++)
        {
            list.Add(ValueAt(list.Count));
        }

        list.Flush();
        return 0;
    }

    /// <summary>Appends 10,000 rows to the table at <paramref name="directory"/> (a time column and double columns) and flushes it.</summary>
    private static int FlushTable(string directory)
    {
        using TimeSeriesTable table = TimeSeriesTable.Open(directory);
        DateTime start = new(2024, 1, 2);
        for (int i = 0; i < 10_000; i++)
        {
            foreach (TableColumnInfo column in table.Schema.Columns)
            {
                table.Column<double>(column.Name).Add(i);
            }

            table.AddRow(start.AddSeconds(i));
        }

        table.Flush();
        return 0;
    }

    /// <summary>Seals or unseals the table folder or the list at <paramref name="path"/>, printing how many files it changed.</summary>
    private static int Replace(string path, Func<string, int> table, Func<string, bool> list)
    {
        Console.WriteLine(Directory.Exists(path) ? table(path) : list(path) ? 1 : 0);
        return 0;
    }

    private static int Check(string path)
    {
        using var list = new ListMmf<long>(path, FileAccess.Read);
        list.Verify();
        return 0;
    }

    private static int Hold(string path)
    {
        using var list = new ListMmf<long>(path);
        Console.WriteLine("holding");
        Console.Out.Flush();
        Console.In.ReadToEnd();
        return 0;
    }

    private static int Usage()
    {
        Console.Error.WriteLine("usage: append PATH COUNT | verify PATH EXPECTED TIMEOUT_MS BACKEND | hold PATH | fill PATH | create PATH | flush PATH | check PATH | stress-write PATH | stress-read PATH OPENS GENERATIONS | table-write DIR ROWS SECONDS PROGRESS... | table-read DIR ROWS SECONDS PROGRESS | table-crash DIR ROWS | int-widen PATH | int-truncate PATH | int-read PATH widen|truncate | series-truncate PATH | series-read PATH | replace-kill PATH BACKEND STEP ROUND | truncate-then-append PATH | widen-then-append PATH | tick-days DIR");
        return 3;
    }
}
