namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// What every way of replaying the market must agree on: a hash of the order the rows came in (each row's time and
/// instrument), and the sum of price times size over them, which makes every way read the values.
/// </summary>
internal struct ReplayChecksum
{
    private const ulong Prime = 1099511628211UL;

    public ulong Order;
    public double Turnover;
    public long Rows;

    public ReplayChecksum()
    {
        Order = 14695981039346656037UL;
    }

    public void Add(long ticks, int instrument, double price, int size)
    {
        Order = (Order ^ (ulong)ticks) * Prime;
        Order = (Order ^ (ulong)instrument) * Prime;
        Turnover += price * size;
        Rows++;
    }

    public override readonly string ToString() => $"{Order:x16}/{Rows}";
}
