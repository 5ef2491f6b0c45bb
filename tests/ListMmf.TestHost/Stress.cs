using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Threading;

namespace ListMmf.TestHost;

/// <summary>
/// The live-reader stress test's two sides, each run to a count, never to a time, so that a slow or loaded machine
/// only makes the test longer:
/// <list type="bullet">
/// <item><c>stress-write PATH</c>: grows a file from 64 KiB to 4 MiB with sorted items (item i is i), then starts
/// the next generation (<c>PATH.1</c>, <c>PATH.2</c>, ...), keeping the last three, until a line (or the end) comes
/// on standard input; prints the generations and growths.</item>
/// <item><c>stress-read PATH OPENS GENERATIONS</c>: opens, searches and refreshes the newest generations with every
/// kind of reader until it has done OPENS opens and refreshes and has followed the writer to generation GENERATIONS
/// (six growths each), counting what a healthy file must never give: an error, or a wrong item.</item>
/// </list>
/// </summary>
public static class Stress
{
    private const long ItemsPerGeneration = (4 << 20) / sizeof(long) - 2;
    private const int GenerationsKept = 3;

    public static int Write(string path)
    {
        var stop = StopSignal.FromStandardInput();
        var random = new Random(1);
        var batch = new long[2048];
        int growths = 0;
        int generation = 0;
        for (; !stop.IsSet; generation++)
        {
            using (var list = new ListMmf<long>(GenerationPath(path, generation)))
            {
                long capacity = 0;
                while (list.Count < ItemsPerGeneration && !stop.IsSet)
                {
                    long next = list.Count;
                    int size = (int)Math.Min(random.Next(1, batch.Length), ItemsPerGeneration - next);
                    for (int i = 0; i < size; i++)
                    {
                        batch[i] = next + i;
                    }

                    list.AddRange(batch.AsSpan(0, size));
                    growths += list.Capacity > capacity ? 1 : 0;
                    capacity = list.Capacity;
                }
            }

            if (generation >= GenerationsKept)
            {
                File.Delete(GenerationPath(path, generation - GenerationsKept));
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"generations={generation} growths={growths}"));
        return 0;
    }

    public static int Read(string path, long opensWanted, int generationsWanted)
    {
        var random = new Random(Environment.ProcessId);
        long opens = 0, refreshes = 0, falseErrors = 0, wrongItems = 0, vanished = 0;
        int generation = 0;
        string? firstError = null;
        while (opens + refreshes < opensWanted || generation < generationsWanted)
        {
            generation = Newest(path, generation);
            if (generation == 0 && !File.Exists(GenerationPath(path, 0)))
            {
                // The writer has not created its first file yet (a process can take seconds to start under Wine).
                Thread.Yield();
                continue;
            }

            string file = GenerationPath(path, Math.Max(0, generation - random.Next(2)));
            try
            {
                wrongItems += (opens % 4) switch
                {
                    0 => CheckList(file, OperatingSystem.IsWindows() ? MappingBackend.Default : MappingBackend.Posix, random),
                    1 => CheckList(file, MappingBackend.MemoryMappedFile, random),
                    2 => CheckSorted(file, random),
                    _ => CheckReader(file, random, ref refreshes),
                };
                opens++;
            }
            catch (FileNotFoundException)
            {
                vanished++;
            }
            catch (Exception exception) when (exception is IOException or InvalidOperationException or ArgumentException)
            {
                falseErrors++;
                firstError ??= exception.GetType().Name + ": " + exception.Message;
            }
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"opens={opens} refreshes={refreshes} falseErrors={falseErrors} wrongItems={wrongItems} vanished={vanished} generation={generation}"));
        if (firstError is not null)
        {
            Console.WriteLine("first error: " + firstError);
        }

        return 0;
    }

    /// <summary>The newest generation that exists, at least <paramref name="known"/>.</summary>
    private static int Newest(string path, int known)
    {
        if (File.Exists(GenerationPath(path, known + 1)))
        {
            known++;
        }

        if (File.Exists(GenerationPath(path, known)))
        {
            return known;
        }

        // Every file, filtered here: under Wine an enumeration with the pattern "stress.bin.*" found none of them.
        string prefix = Path.GetFileName(path) + ".";
        foreach (string file in Directory.EnumerateFiles(Path.GetDirectoryName(path)!))
        {
            string name = Path.GetFileName(file);
            if (name.StartsWith(prefix, StringComparison.Ordinal)
                && int.TryParse(name.AsSpan(prefix.Length), NumberStyles.None, CultureInfo.InvariantCulture, out int generation))
            {
                known = Math.Max(known, generation);
            }
        }

        return known;
    }

    private static string GenerationPath(string path, int generation) => path + "." + generation.ToString(CultureInfo.InvariantCulture);

    private static long CheckList(string file, MappingBackend backend, Random random)
    {
        using var list = new ListMmf<long>(file, FileAccess.Read, new ListMmfOptions { Backend = backend });
        long count = list.Count;
        if (count == 0)
        {
            return 0;
        }

        long wrong = 0;
        foreach (long index in (ReadOnlySpan<long>)[0, count - 1, random.NextInt64(count)])
        {
            wrong += list[index] == index ? 0 : 1;
        }

        // A later count, after the writer went on, must still hold.
        long later = list.Count;
        return wrong + (later >= count && list[later - 1] == later - 1 ? 0 : 1);
    }

    private static long CheckSorted(string file, Random random)
    {
        using var list = new SortedListMmf<long>(file, TimeSeriesOrder.Ascending, FileAccess.Read);
        long count = list.Count;
        long target = random.NextInt64(count + 1);
        long found = list.LowerBound(target);
        return found == target || (target >= count && found >= count) ? 0 : 1;
    }

    private static long CheckReader(string file, Random random, ref long refreshes)
    {
        using var reader = new RandomAccessSortedReader<long>(file);
        long wrong = 0;
        for (int i = 0; i < 4; i++)
        {
            long count = i == 0 ? reader.Count : reader.Refresh();
            refreshes += i == 0 ? 0 : 1;
            long target = random.NextInt64(count + 1);
            wrong += reader.LowerBound(target) == target ? 0 : 1;
        }

        return wrong;
    }
}
