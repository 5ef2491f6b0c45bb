using System;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.TimeSeries;

public sealed class KeyedListMmfTests : IDisposable
{
    private static readonly DateTime Start = new(2024, 1, 2, 9, 30, 0);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private struct ByTicks : IKeySelector<Quote192, long>
    {
        public static long KeyOf(in Quote192 row) => row.TimestampTicks;
    }

    private struct ByTime : IKeySelector<Quote192, DateTime>
    {
        public static DateTime KeyOf(in Quote192 row) => new(row.TimestampTicks);
    }

    /// <summary>Quotes in AscendingOrEqual order of whole seconds, with bursts of equal stamps and gaps.</summary>
    private static Quote192[] Quotes(int count, int seed)
    {
        var random = new Random(seed);
        var quotes = new Quote192[count];
        long ticks = Start.Ticks;
        for (int i = 0; i < count; i++)
        {
            ticks += random.Next(4) == 0 ? random.Next(1, 5) * TimeSpan.TicksPerSecond : 0;
            quotes[i] = Quote192.For(i);
            quotes[i].TimestampTicks = ticks;
        }

        return quotes;
    }

    /// <summary>
    /// A list of <paramref name="quotes"/>; <paramref name="indexed"/>, its searches go through the page index (which
    /// they would otherwise build only past 32 MiB), and the first search proves it.
    /// </summary>
    private KeyedListMmf<Quote192, TKey, TSelector> Open<TKey, TSelector>(Quote192[] quotes, bool indexed = false)
        where TKey : unmanaged, IComparable<TKey>
        where TSelector : IKeySelector<Quote192, TKey>
    {
        var list = new KeyedListMmf<Quote192, TKey, TSelector>(_directory.File($"quotes-{Guid.NewGuid():N}.bt"), TimeSeriesOrder.AscendingOrEqual);
        list.AddRange(quotes);
        if (indexed)
        {
            list.IndexMinimumPages = 1;
            list.LowerBound(list.KeyAt(0));
            Assert.NotNull(list.Index);
        }

        return list;
    }

    [Fact]
    public void BatchedLowerBoundAnswersAsTheSingleLookups()
    {
        Quote192[] quotes = Quotes(3000, seed: 7);
        using var list = Open<long, ByTicks>(quotes);
        long[] keys = [.. Enumerable.Range(-2, 300).Select(i => quotes[0].TimestampTicks + (i * TimeSpan.TicksPerSecond * 13 / 4))];
        long[] batched = new long[keys.Length];

        list.LowerBound(keys, batched);

        Assert.Equal(keys.Select(list.LowerBound), batched);
        Assert.Throws<ArgumentException>(() => list.LowerBound(keys, new long[keys.Length - 1]));
    }

    [Theory]
    [InlineData(1, false)]
    [InlineData(2, false)]
    [InlineData(3, false)]
    [InlineData(1, true)]
    [InlineData(2, true)]
    [InlineData(3, true)]
    public void SearchesByAFieldAgreeWithALinearScan(int seed, bool indexed)
    {
        Quote192[] quotes = Quotes(5000, seed);
        using var list = Open<long, ByTicks>(quotes, indexed);
        long first = quotes[0].TimestampTicks, last = quotes[^1].TimestampTicks;
        var random = new Random(seed);
        for (int i = 0; i < 2000; i++)
        {
            long key = first - TimeSpan.TicksPerSecond + (long)(random.NextDouble() * (last - first + (2 * TimeSpan.TicksPerSecond)));
            if (i % 2 == 0)
            {
                key = quotes[random.Next(quotes.Length)].TimestampTicks;
            }

            long lower = Array.FindIndex(quotes, q => q.TimestampTicks >= key) is var l and >= 0 ? l : quotes.Length;
            long upper = Array.FindIndex(quotes, q => q.TimestampTicks > key) is var u and >= 0 ? u : quotes.Length;
            Assert.Equal(lower, list.LowerBound(key));
            Assert.Equal(upper, list.UpperBound(key));
            Assert.Equal(new IndexRange(lower, upper), list.EqualRange(key));
            Assert.Equal(lower < upper ? lower : ~lower, list.BinarySearch(key));
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void RangedSearchesAgreeWithALinearScanOfTheRange(bool indexed)
    {
        Quote192[] quotes = Quotes(10_000, 4);
        using var list = Open<long, ByTicks>(quotes, indexed);
        var random = new Random(4);
        for (int i = 0; i < 1000; i++)
        {
            int a = random.Next(quotes.Length + 1), b = random.Next(quotes.Length + 1);
            (int from, int to) = (Math.Min(a, b), Math.Max(a, b));
            long key = quotes[random.Next(quotes.Length)].TimestampTicks;
            int lower = from;
            while (lower < to && quotes[lower].TimestampTicks < key)
            {
                lower++;
            }

            int upper = lower;
            while (upper < to && quotes[upper].TimestampTicks <= key)
            {
                upper++;
            }

            Assert.Equal(lower, list.LowerBound(key, from, to));
            Assert.Equal(upper, list.UpperBound(key, from, to));
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => list.LowerBound(0, 5, 4));
        Assert.Throws<ArgumentOutOfRangeException>(() => list.LowerBound(0, 0, quotes.Length + 1));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void DateTimeKeysFollowTheTimeSeriesRules(bool indexed)
    {
        Quote192[] quotes = Quotes(2000, 5);
        using var list = Open<DateTime, ByTime>(quotes, indexed);
        var random = new Random(5);
        for (int i = 0; i < 1000; i++)
        {
            DateTime time = new DateTime(quotes[random.Next(quotes.Length)].TimestampTicks).AddMilliseconds(random.Next(-1500, 1500));
            long lower = Array.FindIndex(quotes, q => q.TimestampTicks >= time.Ticks) is var l and >= 0 ? l : quotes.Length;
            long upper = Array.FindIndex(quotes, q => q.TimestampTicks > time.Ticks) is var u and >= 0 ? u : quotes.Length;
            Assert.Equal(lower, list.LowerBound(time));
            Assert.Equal(upper, list.UpperBound(time));
            Assert.Equal(lower, list.LowerBound(DateTime.SpecifyKind(time, DateTimeKind.Utc)));
        }

        DateTime from = new(quotes[100].TimestampTicks), to = new(quotes[900].TimestampTicks);
        IndexRange range = list.FindRange(from, to);
        Assert.All(list.AsSpan(range).ToArray(), q => Assert.InRange(q.TimestampTicks, from.Ticks, to.Ticks - 1));
    }

    [Fact]
    public void ARowOutOfOrderIsRefusedAndNothingWritten()
    {
        Quote192[] quotes = Quotes(10, 6);
        using var list = Open<long, ByTicks>(quotes);
        Quote192 early = Quote192.For(10);
        early.TimestampTicks = quotes[^1].TimestampTicks - 1;

        var error = Assert.Throws<ListMmfOrderException>(() => list.Add(early));
        var batchError = Assert.Throws<ListMmfOrderException>(() => list.AddRange([quotes[^1], early]));

        Assert.Equal(10, error.Index);
        Assert.Equal(11, batchError.Index);
        Assert.Equal(10, list.Count);
    }

    [Fact]
    public void VerifyReportsTheFirstRowWhoseKeyIsOutOfOrder()
    {
        Quote192[] quotes = Quotes(100, 7);
        using var list = Open<long, ByTicks>(quotes);
        Quote192 early = Quote192.For(100);
        early.TimestampTicks = 0;
        list.List.Add(early);
        list.List.Add(quotes[^1]);

        var error = Assert.Throws<ListMmfOrderException>(list.Verify);

        Assert.Equal(100, error.Index);
    }

    [Fact]
    public void RowsReadBackWhole()
    {
        Quote192[] quotes = Quotes(300, 8);
        using var list = Open<long, ByTicks>(quotes);

        Assert.Equal(quotes, list.ToArray());
        Assert.Equal(quotes[123], list[123]);
        Assert.Equal(quotes[123].TimestampTicks, list.KeyAt(123));
        Assert.Equal(quotes[10..20], list.AsSpan(10, 10).ToArray());
    }

    [Fact]
    public void AKeyedListRecordsItsOrderSoAWeakerOpenCannotAppendOutOfIt()
    {
        string path = _directory.File("recorded.bt");
        Quote192[] quotes = Quotes(10, seed: 3);
        quotes = [.. quotes.DistinctBy(quote => quote.TimestampTicks)];
        using (var list = new KeyedListMmf<Quote192, long, ByTicks>(path, TimeSeriesOrder.Ascending))
        {
            list.AddRange(quotes);
        }

        using var reopened = new KeyedListMmf<Quote192, long, ByTicks>(path, TimeSeriesOrder.None);
        Quote192 earlier = quotes[0];

        Assert.Throws<ListMmfOrderException>(() => reopened.Add(earlier));
        Assert.Equal(quotes.Length, reopened.Count);
        reopened.Verify();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void TheRangedAndBatchedSearchesAnswerAsTheSortedListOfTheSameKeys(bool indexed)
    {
        Quote192[] quotes = Quotes(3000, seed: 11);
        using var keyed = Open<long, ByTicks>(quotes, indexed);
        using var sorted = new SortedListMmf<long>(_directory.File("keys.mmf"), TimeSeriesOrder.AscendingOrEqual);
        sorted.AddRange([.. quotes.Select(quote => quote.TimestampTicks)]);
        long[] keys = [.. Enumerable.Range(-2, 300).Select(i => quotes[0].TimestampTicks + (i * TimeSpan.TicksPerSecond * 7 / 2))];
        long[] fromKeyed = new long[keys.Length];
        long[] fromSorted = new long[keys.Length];

        keyed.UpperBound(keys, fromKeyed);
        sorted.UpperBound(keys, fromSorted);

        Assert.Equal(fromSorted, fromKeyed);
        Assert.Equal(keys.Select(key => sorted.EqualRange(key, 100, 2500)), keys.Select(key => keyed.EqualRange(key, 100, 2500)));
        Assert.Equal(keys.Select(key => sorted.BinarySearch(key, 100, 2500)), keys.Select(key => keyed.BinarySearch(key, 100, 2500)));
        Assert.Throws<ArgumentOutOfRangeException>(() => keyed.EqualRange(keys[0], 10, 5));
    }

    [Fact]
    public void TruncateBeginningKeepsTheLaterRowsSearchable()
    {
        Quote192[] quotes = Quotes(1000, seed: 5);
        using var list = Open<long, ByTicks>(quotes);

        list.TruncateBeginning(400);
        list.TrimExcess();

        Assert.Equal(600, list.Count);
        Assert.Equal(quotes[400].TimestampTicks, list.KeyAt(0));
        Assert.Equal(quotes.Skip(400).ToArray().AsSpan().ToArray(), list.AsMemory(new IndexRange(0, 600)).ToArray());
        Assert.Equal(0, list.LowerBound(quotes[400].TimestampTicks));
    }

    /// <summary>
    /// The index follows the rows it covers: extended as the list grows well past it, dropped by Truncate and by
    /// TruncateBeginning (a new file), so every answer stays that of a scan of the rows there now.
    /// </summary>
    [Fact]
    public void SearchesThroughTheIndexFollowTheListAsItGrowsAndIsTruncated()
    {
        Quote192[] quotes = Quotes(40_000, seed: 12);
        using var list = Open<long, ByTicks>(quotes[..2_000], indexed: true);
        long indexedAtFirst = list.Index!.IndexedCount;

        list.AddRange(quotes.AsSpan(2_000));
        AssertAgreesWithAScan(list, quotes);
        Assert.True(list.Index!.IndexedCount > indexedAtFirst, "the index was not extended as the list grew");

        list.Truncate(30_000);
        AssertAgreesWithAScan(list, quotes[..30_000]);

        list.TruncateBeginning(7_000);
        AssertAgreesWithAScan(list, quotes[7_000..30_000]);
    }

    private static void AssertAgreesWithAScan(KeyedListMmf<Quote192, long, ByTicks> list, Quote192[] quotes)
    {
        long[] keys = [.. quotes.Select(quote => quote.TimestampTicks).Distinct()];
        keys = [keys[0] - 1, .. keys.Where((_, i) => i % 7 == 0), keys[^1], keys[^1] + 1];
        foreach (long key in keys)
        {
            int lower = Array.FindIndex(quotes, q => q.TimestampTicks >= key) is var l and >= 0 ? l : quotes.Length;
            int upper = Array.FindIndex(quotes, q => q.TimestampTicks > key) is var u and >= 0 ? u : quotes.Length;
            Assert.Equal((lower, upper), (list.LowerBound(key), list.UpperBound(key)));
        }

        long[] batched = new long[keys.Length];
        list.LowerBound(keys, batched);
        Assert.Equal(keys.Select(list.LowerBound), batched);
    }

    [Fact]
    public void VerifyWithProgressReportsToTheEnd()
    {
        using var list = Open<long, ByTicks>(Quotes(100, seed: 9));
        var reports = new System.Collections.Generic.List<double>();

        list.Verify(new SynchronousProgress(reports.Add));

        Assert.Equal(1, reports[^1]);
    }
}
