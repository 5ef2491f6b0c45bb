using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using ListMmf.Sealed;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// The sealed indexer over blocks it cannot read in place (deltas), which it decodes once per thread and keeps: every
/// item as <see cref="SealedListMmf{T}.CopyTo"/> gives it, in any order, from several lists and threads at once.
/// </summary>
public sealed class SealedIndexerTests : IDisposable
{
    private const int Items = 50_000;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void AWalkOfQuarterPointsSealsInDeltaBlocks()
    {
        using SealedListMmf<double> prices = Sealed("prices", seed: 1);

        Assert.All(SealedCodecs.Of(prices.Path), codec => Assert.Equal(SealedCodec.TickDeltas, codec));
    }

    [Fact]
    public void TheIndexerGivesEveryItemAsCopyToInOrderBackwardsAndAtRandom()
    {
        using SealedListMmf<double> prices = Sealed("prices", seed: 1);
        double[] expected = prices.ToArray();
        int[] random = Enumerable.Range(0, Items).OrderBy(_ => Random.Shared.Next()).ToArray();

        Assert.Equal(expected, Enumerable.Range(0, Items).Select(i => prices[i]));
        Assert.Equal(Enumerable.Reverse(expected), Enumerable.Range(0, Items).Reverse().Select(i => prices[i]));
        Assert.Equal(random.Select(i => expected[i]), random.Select(i => prices[i]));
    }

    [Fact]
    public void TwoListsReadInTurnOnOneThreadEachGiveTheirOwnItems()
    {
        using SealedListMmf<double> first = Sealed("first", seed: 1);
        using SealedListMmf<double> second = Sealed("second", seed: 2);
        double[] firstItems = first.ToArray();
        double[] secondItems = second.ToArray();
        Assert.NotEqual(firstItems[5], secondItems[5]);

        for (int i = 0; i < Items; i++)
        {
            Assert.Equal(firstItems[i], first[i]);
            Assert.Equal(secondItems[i], second[i]);
        }
    }

    [Fact]
    public void ThreadsReadingOneListAtOnceEachGetEveryItemRight()
    {
        using SealedListMmf<double> prices = Sealed("prices", seed: 1);
        double[] expected = prices.ToArray();

        int[] wrong = Enumerable.Range(0, 4).AsParallel().WithDegreeOfParallelism(4).Select(thread =>
        {
            var random = new Random(thread);
            int misses = 0;
            for (int read = 0; read < 200_000; read++)
            {
                int i = random.Next(Items);
                misses += prices[i] == expected[i] ? 0 : 1;
            }

            return misses;
        }).ToArray();

        Assert.All(wrong, misses => Assert.Equal(0, misses));
    }

    [Fact]
    public void TheIndexerOfADisposedListThrowsForABlockItHadReadToo()
    {
        SealedListMmf<double> prices = Sealed("prices", seed: 1);
        _ = prices[10];
        prices.Dispose();

        Assert.Throws<ObjectDisposedException>(() => prices[11]);
    }

    [Fact]
    public void AListOpenedAgainAfterItsFileWasReplacedGivesTheNewFilesItems()
    {
        using (SealedListMmf<double> before = Sealed("prices", seed: 1))
        {
            _ = before[10];
        }

        File.Delete(_directory.File("prices"));
        using SealedListMmf<double> after = Sealed("prices", seed: 2);

        Assert.Equal(after.ToArray()[10], after[10]);
    }

    /// <summary>A sealed walk of quarter points, up to three a step: deltas pack in fewer bits than the block's range.</summary>
    private SealedListMmf<double> Sealed(string name, int seed)
    {
        string path = _directory.File(name);
        var random = new Random(seed);
        using (var writer = new ListMmf<double>(path))
        {
            long quarters = 18_000 + (seed * 1_000);
            for (int i = 0; i < Items; i++)
            {
                quarters += random.Next(-3, 4);
                writer.Add(quarters / 4.0);
            }
        }

        SealedListMmf.Seal(path);
        return new SealedListMmf<double>(path);
    }
}
