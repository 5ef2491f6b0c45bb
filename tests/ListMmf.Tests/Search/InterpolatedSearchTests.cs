using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Numerics;
using Xunit;

namespace ListMmf.Tests.Search;

/// <summary>
/// For integer keys the indexed single search starts at the cache line that the fences around the value's block
/// place it in. Whatever the spacing of the keys (the guess exact, short of the bound, past it, or the keys of a
/// block all equal), the answer is a linear scan's, for every key type the guess is made for.
/// </summary>
public sealed class InterpolatedSearchTests : IDisposable
{
    /// <summary>Enough items for dozens of 1 KiB blocks of 8-byte keys, and for the index's second level.</summary>
    private const int Length = 6_000;

    private readonly TempDirectory _directory = new();

    public static TheoryData<string> Spacings() => ["even", "quadratic", "bursts and gaps", "runs", "extremes of the type"];

    public void Dispose() => _directory.Dispose();

    [Theory, MemberData(nameof(Spacings))]
    public void IndexedSearchesOfInt32KeysAgreeWithALinearScan(string spacing) => AssertAgrees<int>(spacing);

    [Theory, MemberData(nameof(Spacings))]
    public void IndexedSearchesOfInt64KeysAgreeWithALinearScan(string spacing) => AssertAgrees<long>(spacing);

    [Theory, MemberData(nameof(Spacings))]
    public void IndexedSearchesOfUInt32KeysAgreeWithALinearScan(string spacing) => AssertAgrees<uint>(spacing);

    [Theory, MemberData(nameof(Spacings))]
    public void IndexedSearchesOfUInt64KeysAgreeWithALinearScan(string spacing) => AssertAgrees<ulong>(spacing);

    private void AssertAgrees<T>(string spacing)
        where T : unmanaged, IBinaryInteger<T>, IMinMaxValue<T>
    {
        var random = new Random(spacing.Length);
        T[] items = Items<T>(spacing, random);
        string path = _directory.File($"{typeof(T).Name}-{spacing.Replace(' ', '-')}.bt");
        using (var writer = new SortedListMmf<T>(path, TimeSeriesOrder.AscendingOrEqual))
        {
            writer.AddRange(items);
        }

        using SortedListMmf<T> list = SortedSearchers.OpenSorted<T>(path, MappingBackend.Default, indexed: true);
        Assert.True(list.LowerBound(items[0]) == 0 && list.Index is not null, "the search did not build the page index");
        var wrong = new List<string>();
        foreach (T target in Targets(items, random))
        {
            long lower = items.Count(item => item < target);
            long upper = items.Count(item => item <= target);
            long lowerFound = list.LowerBound(target);
            long upperFound = list.UpperBound(target);
            if (lowerFound != lower || upperFound != upper)
            {
                wrong.Add($"{target}: LowerBound {lowerFound} (a scan: {lower}), UpperBound {upperFound} (a scan: {upper})");
            }
        }

        Assert.Empty(wrong.Take(10));
    }

    /// <summary>Sorted keys whose spacing within a block makes the guess land as named.</summary>
    private static T[] Items<T>(string spacing, Random random)
        where T : unmanaged, IBinaryInteger<T>, IMinMaxValue<T>
    {
        // Offsets from the type's zero (or its middle, for the signed types' negative keys): all fit in 32 bits.
        T origin = T.IsZero(T.MinValue) ? T.CreateTruncating(1_000) : T.CreateTruncating(-3_000_000);
        IEnumerable<long> offsets = spacing switch
        {
            "even" => Enumerable.Range(0, Length).Select(i => i * 7L),
            "quadratic" => Enumerable.Range(0, Length).Select(i => (long)i * i / 16),
            "bursts and gaps" => Bursts(random),
            "runs" => Enumerable.Range(0, Length).Select(i => (long)(i / random.Next(1, 700))).Order(),
            _ => [],
        };

        if (spacing == "extremes of the type")
        {
            // Blocks from the smallest key to the largest: the span between fences is the type's whole range.
            return [.. Enumerable.Repeat(T.MinValue, Length / 3), .. Enumerable.Range(0, Length / 3).Select(i => origin + T.CreateTruncating(i)),
                .. Enumerable.Repeat(T.MaxValue, Length / 3)];
        }

        return offsets.Select(offset => origin + T.CreateTruncating(offset)).ToArray();
    }

    /// <summary>Ticks of a busy market: seconds of a few to a hundred equal keys, quiet seconds, and long closes.</summary>
    private static IEnumerable<long> Bursts(Random random)
    {
        long second = 0;
        int produced = 0;
        while (produced < Length)
        {
            second += random.Next(20) == 0 ? random.Next(10_000, 2_000_000) : random.Next(1, 4);
            int ticks = random.Next(10) == 0 ? random.Next(40, 120) : random.Next(1, 6);
            for (int i = 0; i < ticks && produced < Length; i++, produced++)
            {
                yield return second;
            }
        }
    }

    private static HashSet<T> Targets<T>(T[] items, Random random)
        where T : unmanaged, IBinaryInteger<T>, IMinMaxValue<T>
    {
        T[] distinct = items.Distinct().ToArray();
        random.Shuffle(distinct);
        var targets = new HashSet<T> { T.MinValue, T.MaxValue, T.Zero };
        foreach (T item in distinct.Take(1_500))
        {
            targets.Add(item);
            targets.Add(item == T.MinValue ? item : item - T.One);
            targets.Add(item == T.MaxValue ? item : item + T.One);
        }

        T low = items[0];
        T high = items[^1];
        for (int i = 0; i < 200; i++)
        {
            // Between any two keys, the gaps included.
            targets.Add(low + T.CreateTruncating(random.NextInt64(long.Max(1, long.CreateSaturating(high - low)))));
        }

        return targets;
    }
}
