using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>A sealed list enumerated and copied by range: every item in order, as the appendable list gave it.</summary>
public sealed class SealedEnumeratorTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(1_024)]
    [InlineData(5_000)]
    public void EnumeratingGivesEveryItemInOrder(int count)
    {
        long[] items = Items(count);
        using SealedListMmf<long> list = Sealed(items);

        var seen = new List<long>();
        foreach (long item in list)
        {
            seen.Add(item);
        }

        Assert.Equal(items, seen);
        Assert.Equal(items, list.AsEnumerable());
    }

    [Fact]
    public void AnEnumeratorResetStartsOverAndPastTheEndStaysThere()
    {
        long[] items = Items(3_000);
        using SealedListMmf<long> list = Sealed(items);
        SealedListMmf<long>.Enumerator enumerator = list.GetEnumerator();
        while (enumerator.MoveNext())
        {
        }

        Assert.False(enumerator.MoveNext());
        Assert.Equal(0, enumerator.Current);
        enumerator.Reset();
        Assert.True(enumerator.MoveNext());
        Assert.Equal(items[0], enumerator.Current);
    }

    [Fact]
    public void EnumeratingADisposedListThrows()
    {
        SealedListMmf<long> list = Sealed(Items(10));
        list.Dispose();

        Assert.Throws<ObjectDisposedException>(() => list.First());
    }

    [Fact]
    public void CopyingARangeGivesItsItemsAndRefusesOneOutsideTheList()
    {
        long[] items = Items(5_000);
        using SealedListMmf<long> list = Sealed(items);
        long[] copied = new long[2_100];

        list.CopyTo(new IndexRange(1_000, 3_100), copied);

        Assert.Equal(items[1_000..3_100], copied);
        Assert.Throws<ArgumentOutOfRangeException>(() => list.CopyTo(new IndexRange(4_000, 5_001), new long[1_001]));
        Assert.Throws<ArgumentException>(() => list.CopyTo(new IndexRange(0, 10), new long[9]));
    }

    /// <summary>A walk with outliers: blocks of several codecs.</summary>
    private static long[] Items(int count)
    {
        var random = new Random(count);
        long value = 1_000_000;
        return Enumerable.Range(0, count).Select(i => value += i % 997 == 0 ? random.Next(1 << 20) : random.Next(-3, 4)).ToArray();
    }

    private SealedListMmf<long> Sealed(long[] items)
    {
        string path = _directory.File($"items-{items.Length}.bin");
        using (var writer = new ListMmf<long>(path))
        {
            writer.AddRange(items);
        }

        SealedListMmf.Seal(path);
        return new SealedListMmf<long>(path);
    }
}
