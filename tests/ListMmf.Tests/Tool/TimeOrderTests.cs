using System;
using System.Linq;
using ListMmf.Tool.CatalogImport;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>The sort a catalog import's --sort gives a file's rows.</summary>
public sealed class TimeOrderTests
{
    [Fact]
    public void TimesInOrderAreLeftAsTheyAre()
    {
        long[] times = [1, 2, 2, 5];

        Assert.Null(TimeOrder.Sort(times));
        Assert.Equal([1L, 2, 2, 5], times);
    }

    [Fact]
    public void EqualTimesKeepTheFilesOrderAmongThousandsOfRows()
    {
        var random = new Random(5);
        long[] times = Enumerable.Range(0, 5_000).Select(_ => (long)random.Next(7)).ToArray();
        long[] original = (long[])times.Clone();

        int[] rows = TimeOrder.Sort(times)!;

        int[] expected = Enumerable.Range(0, original.Length).OrderBy(row => original[row]).ToArray(); // LINQ's sort is stable
        Assert.Equal(expected, rows);
        Assert.Equal(expected.Select(row => original[row]), times);
    }
}
