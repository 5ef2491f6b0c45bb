namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// The baseline a replay must not be slower than: the same market already in memory as arrays, merged row by row
/// with a binary heap over the instruments keyed by (time, instrument), as a user writes it. The writer appends
/// the market in the same order.
/// </summary>
internal static class ArrayMerge
{
    /// <summary>What the merge does with each row: a struct, so that the merge is compiled for it and calls it inline.</summary>
    public interface IRowVisitor
    {
        void Visit(int instrument, int row);
    }

    public static ReplayChecksum Replay(CatalogMarket market)
    {
        var visitor = new Checksummer(market);
        Merge(market, ref visitor);
        return visitor.Checksum;
    }

    public static void Merge<TVisitor>(CatalogMarket market, ref TVisitor visitor)
        where TVisitor : struct, IRowVisitor
    {
        int count = market.Times.Length;
        int[] heap = new int[count];
        int[] next = new int[count];
        for (int i = 0; i < count; i++)
        {
            heap[i] = i;
        }

        // Instruments start in ordinal order with their first times; sifting every one down makes the heap.
        for (int i = (count / 2) - 1; i >= 0; i--)
        {
            SiftDown(market, heap, next, count, i);
        }

        while (count > 0)
        {
            int instrument = heap[0];
            int row = next[instrument]++;
            visitor.Visit(instrument, row);
            if (next[instrument] == market.Times[instrument].Length)
            {
                heap[0] = heap[--count];
            }

            SiftDown(market, heap, next, count, 0);
        }
    }

    private static bool Before(CatalogMarket market, int[] next, int a, int b)
    {
        long ta = market.Times[a][next[a]];
        long tb = market.Times[b][next[b]];
        return ta != tb ? ta < tb : a < b;
    }

    private static void SiftDown(CatalogMarket market, int[] heap, int[] next, int count, int at)
    {
        int item = heap[at];
        while (true)
        {
            int child = (2 * at) + 1;
            if (child >= count)
            {
                break;
            }

            if (child + 1 < count && Before(market, next, heap[child + 1], heap[child]))
            {
                child++;
            }

            if (!Before(market, next, heap[child], item))
            {
                break;
            }

            heap[at] = heap[child];
            at = child;
        }

        if (count > 0)
        {
            heap[at] = item;
        }
    }

    private struct Checksummer(CatalogMarket market) : IRowVisitor
    {
        public ReplayChecksum Checksum = new();

        public void Visit(int instrument, int row) =>
            Checksum.Add(market.Times[instrument][row], instrument, market.Prices[instrument][row], market.Sizes[instrument][row]);
    }
}
