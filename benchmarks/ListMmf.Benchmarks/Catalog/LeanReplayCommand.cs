using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.Core;
using ListMmf.Tool.Vendor;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// <c>catalog-lean --lean DIR [--rounds K]</c>: real ticks (../shared/data/lean) imported into a catalog by
/// <c>listmmf catalog import</c>'s importer, then every trade and quote replayed in one time order, warm, beside
/// the way a Lean user reads them: each symbol's day zip inflated and parsed whole when the merge reaches it, a k-way
/// merge over the symbols and kinds (issue 67's goal: the replay at least 3x faster); and beside the same merge over
/// the rows already in memory (the goal: no slower). Appendable, then sealed. Every way must give one checksum.
/// </summary>
internal static class LeanReplayCommand
{
    private const string ZipMergeName = "k-way merge over Lean's zips (each day inflated and parsed)";
    private const string ArrayMergeName = "k-way merge over arrays in memory";

    public static int Run(string lean, int rounds)
    {
        string folder = BenchmarkFiles.FreshDirectory("catalog-lean");
        try
        {
            TimeZoneInfo newYork = TimeZoneInfo.FindSystemTimeZoneById("America/New_York");
            var clock = Stopwatch.StartNew();
            ListMmf.Tool.CatalogImport.CatalogImportResult imported = LeanImporter.Run(new LeanImportRequest(lean, folder, newYork, CatalogPeriod.Day));
            Console.WriteLine($"catalog-lean: imported {imported.Rows:N0} rows of {imported.Files:N0} files from '{lean}' in " +
                $"{clock.Elapsed.TotalSeconds:N2} s on {Environment.ProcessorCount} cores, {Environment.OSVersion}, .NET {Environment.Version}");

            LeanSeries[] series;
            using (var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read))
            {
                series = LeanSeries.Of(catalog, lean, newYork);
            }

            LeanDay[][] inMemory = [.. series.Select(one => one.Files.Select(one.Read).ToArray())];
            long rows = inMemory.Sum(days => days.Sum(day => (long)day.Rows));
            ReplayChecksum expected = Merge(series, inMemory);
            var times = new Dictionary<string, List<double>>();
            foreach (bool sealedForm in new[] { false, true })
            {
                if (sealedForm)
                {
                    using var writer = TimeSeriesCatalog.Open(folder);
                    Console.WriteLine($"sealed {writer.Seal(DateTime.MaxValue):N0} partitions");
                }

                using var catalog = TimeSeriesCatalog.Open(folder, FileAccess.Read);
                string replay = sealedForm ? "catalog replay, sealed" : "catalog replay, appendable";
                for (int round = 0; round < rounds; round++)
                {
                    ReplayChecksum.Timed(times, replay, expected, () => Replay(catalog));
                    ReplayChecksum.Timed(times, ZipMergeName, expected, () => Merge(series, inMemory: null));
                    ReplayChecksum.Timed(times, ArrayMergeName, expected, () => Merge(series, inMemory));
                }
            }

            Console.WriteLine($"checksum of every replay: {expected}");
            Console.WriteLine($"| replay of {rows:N0} real trades and quotes, warm | median s | M rows/s | zips / this | this / arrays |");
            Console.WriteLine("|---|---:|---:|---:|---:|");
            double zips = Medians.Of(times[ZipMergeName]);
            double arrays = Medians.Of(times[ArrayMergeName]);
            foreach ((string name, List<double> timed) in times)
            {
                double median = Medians.Of(timed);
                Console.WriteLine($"| {name} | {median:N3} | {rows / median / 1e6:N2} | {zips / median:N2}x | {median / arrays:N2}x |");
            }

            return 0;
        }
        finally
        {
            BenchmarkFiles.DeleteDirectory(folder);
        }
    }

    /// <summary>
    /// The catalog's replay of every trade and quote, each batch's first price and size by name
    /// (<see cref="CatalogReplay.Values{T}(string)"/>: trades and quotes have no column in common).
    /// </summary>
    private static ReplayChecksum Replay(TimeSeriesCatalog catalog)
    {
        var checksum = new ReplayChecksum();
        using CatalogReplay replay = catalog.Replay(DateTime.MinValue, DateTime.MaxValue, kinds: [LeanKind.Trade.Name, LeanKind.Quote.Name]);
        while (replay.MoveNext())
        {
            CatalogPartition partition = replay.Partition;
            LeanKind kind = partition.Kind == LeanKind.Trade.Name ? LeanKind.Trade : LeanKind.Quote;
            ReadOnlySpan<DateTime> times = replay.Times;
            ReadOnlySpan<double> price = replay.Values<double>(kind.Prices[0]);
            ReadOnlySpan<int> size = replay.Values<int>(kind.Sizes[0]);
            int key = LeanSeries.KeyOf(partition.KindRank, partition.InstrumentOrdinal);
            for (int i = 0; i < times.Length; i++)
            {
                checksum.Add(times[i].Ticks, key, price[i], size[i]);
            }
        }

        return checksum;
    }

    /// <summary>
    /// A k-way merge of the series by (time, kind rank, instrument ordinal, row), the catalog's order: over the days
    /// in <paramref name="inMemory"/>, or, without them, each day read from its zip when the merge reaches it.
    /// </summary>
    private static ReplayChecksum Merge(LeanSeries[] series, LeanDay[][]? inMemory)
    {
        var checksum = new ReplayChecksum();
        var cursors = new Cursor[series.Length];
        var heap = new PriorityQueue<int, (long Time, int Key)>();
        for (int s = 0; s < series.Length; s++)
        {
            cursors[s] = new Cursor(series[s], inMemory?[s]);
            if (cursors[s].MoveToRows())
            {
                heap.Enqueue(s, (cursors[s].Time, series[s].Key));
            }
        }

        while (heap.TryDequeue(out int s, out _))
        {
            Cursor cursor = cursors[s];
            LeanDay day = cursor.Day!;
            int row = cursor.Row;
            checksum.Add(day.Times[row], series[s].Key, day.Prices[0][row], day.Sizes[0][row]);
            cursor.Row++;
            if (cursor.MoveToRows())
            {
                heap.Enqueue(s, (cursor.Time, series[s].Key));
            }
        }

        return checksum;
    }

    /// <summary>A series' place in a merge: its day, read when reached, and the row in it.</summary>
    private sealed class Cursor(LeanSeries series, LeanDay[]? days)
    {
        private int _file = -1;

        public LeanDay? Day { get; private set; }

        public int Row { get; set; }

        public long Time => Day!.Times[Row];

        /// <summary>Moves to the next day that has rows when the day is used up; false when the series is.</summary>
        public bool MoveToRows()
        {
            while (Day is null || Row == Day.Rows)
            {
                if (++_file == series.Files.Length)
                {
                    return false;
                }

                Day = days?[_file] ?? series.Read(series.Files[_file]);
                Row = 0;
            }

            return true;
        }
    }

    /// <summary>One symbol's ticks of one kind: its day files in order, and its place in the catalog's order.</summary>
    private sealed class LeanSeries(LeanFile[] files, int key, TimeZoneInfo zone)
    {
        public LeanFile[] Files { get; } = files;

        /// <summary>(kind rank, instrument ordinal) as one number, in the order of the pair.</summary>
        public int Key { get; } = key;

        public static int KeyOf(int kindRank, int instrumentOrdinal) => (kindRank << 20) | instrumentOrdinal;

        /// <summary>A day's rows as the import reads them: parsed, times in UTC.</summary>
        public LeanDay Read(LeanFile file)
        {
            LeanDay day = LeanDay.Read(file);
            day.TimesToUtc(zone);
            return day;
        }

        /// <summary>Every trade and quote series of the folder, keyed as the catalog orders them.</summary>
        public static LeanSeries[] Of(TimeSeriesCatalog catalog, string lean, TimeZoneInfo zone) =>
        [
            .. LeanFile.Find(lean)
                .Where(file => file.Kind.IsTicks)
                .GroupBy(file => (file.Kind, file.Symbol))
                .Select(group => new LeanSeries(
                    [.. group.OrderBy(file => file.Day)],
                    KeyOf(catalog.Schema.Kinds.ToList().IndexOf(group.Key.Kind.Name), catalog.Instruments.ToList().IndexOf(group.Key.Symbol)),
                    zone)),
        ];
    }
}
