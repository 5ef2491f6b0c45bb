using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.LowerBound;
using ListMmf.Tool;
using ListMmf.Tool.Vendor;

namespace ListMmf.Benchmarks.Data;

/// <summary>
/// Real US equity ticks as QuantConnect Lean stores them (../shared/data/lean/README.md): one zip a symbol a day a
/// kind (<c>SYM_YYYYMMDD_trade_tick.zip</c>, <c>..._quote_tick.zip</c>), one CSV inside without a header, times in ms
/// since midnight (New York), prices times 10,000. Read into the columns of one table a symbol and kind, days in order.
/// </summary>
internal sealed class LeanTicks
{
    private LeanTicks(string symbol, string kind, string[] names, DateTime[] times, double[][] prices, int[][] sizes, byte[] exchanges,
        uint[] conditions, byte[] suspicious, long zippedBytes)
    {
        Symbol = symbol;
        Kind = kind;
        PriceNames = names;
        Times = times;
        Prices = prices;
        Sizes = sizes;
        Exchanges = exchanges;
        Conditions = conditions;
        Suspicious = suspicious;
        ZippedBytes = zippedBytes;
    }

    public string Symbol { get; }

    /// <summary>"trade" or "quote".</summary>
    public string Kind { get; }

    /// <summary>The price columns' names: "price" for trades; "bid" and "ask" for quotes (their sizes are named after them).</summary>
    public string[] PriceNames { get; }

    public DateTime[] Times { get; }

    public double[][] Prices { get; }

    public int[][] Sizes { get; }

    /// <summary>The exchange's letter as its ASCII code.</summary>
    public byte[] Exchanges { get; }

    /// <summary>The sale or quote condition, as Lean parses its text (hexadecimal for trades, decimal for quotes).</summary>
    public uint[] Conditions { get; }

    public byte[] Suspicious { get; }

    /// <summary>The vendor's zips these rows came from.</summary>
    public long ZippedBytes { get; }

    public int Rows => Times.Length;

    /// <summary>A price side's size column: "size" for trades, "bid_size" and "ask_size" for quotes.</summary>
    public string SizeName(int side) => PriceNames.Length == 1 ? "size" : PriceNames[side] + "_size";

    /// <summary>
    /// The rows as a new appendable table in <paramref name="folder"/> (replacing what is there): the time, each side's
    /// price (double) and size (int), the exchange and the condition as text columns of byte codes, and the suspicious
    /// flag (byte).
    /// </summary>
    public void WriteTable(string folder)
    {
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }

        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.AscendingOrEqual);
        for (int side = 0; side < PriceNames.Length; side++)
        {
            schema = schema.Add<double>(PriceNames[side]).Add<int>(SizeName(side));
        }

        schema = schema.AddText("exchange", DataType.Byte).AddText("condition", DataType.Byte).Add<byte>("suspicious");
        using var table = TimeSeriesTable.Create(folder, schema);
        for (int side = 0; side < PriceNames.Length; side++)
        {
            table.Column<double>(PriceNames[side]).AddRange(Prices[side]);
            table.Column<int>(SizeName(side)).AddRange(Sizes[side]);
        }

        table.Text("exchange").AddRange(ExchangeTexts());
        table.Text("condition").AddRange(ConditionTexts());
        table.Column<byte>("suspicious").AddRange(Suspicious);
        table.AddRows(Times);
    }

    /// <summary>Each row's exchange as the vendor writes it: its letter.</summary>
    public string[] ExchangeTexts() => [.. Exchanges.Select(exchange => ((char)exchange).ToString())];

    /// <summary>Each row's condition as text: hexadecimal for trades (as the vendor writes it), decimal for quotes.</summary>
    public string[] ConditionTexts() =>
        [.. Conditions.Select(condition => condition.ToString(PriceNames.Length == 1 ? "X" : "D", CultureInfo.InvariantCulture))];

    /// <summary>Every symbol and kind of tick zips in <paramref name="folder"/>, each with its days in order.</summary>
    /// <exception cref="DatasetException">The folder holds no tick zips, or a row is not as Lean writes it.</exception>
    public static IReadOnlyList<LeanTicks> Read(string folder)
    {
        try
        {
            var groups = LeanFile.Find(folder)
                .Where(file => file.Kind.IsTicks)
                .GroupBy(file => (file.Symbol, Kind: file.Kind.Name))
                .OrderBy(group => group.Key.Symbol, StringComparer.Ordinal).ThenBy(group => group.Key.Kind, StringComparer.Ordinal)
                .ToList();
            return groups.Count > 0
                ? groups.Select(group => ReadDays(group.OrderBy(file => file.Day).ToList())).ToList()
                : throw new DatasetException($"'{folder}' holds no Lean tick zips (SYM_YYYYMMDD_trade_tick.zip).");
        }
        catch (DataException exception)
        {
            throw new DatasetException(exception.Message);
        }
    }

    /// <summary>
    /// <paramref name="rows"/> generated trades shaped like the real ones: millisecond times in bursts, a cent-price
    /// random walk, round lots with odd lots and blocks, a few exchanges and conditions.
    /// </summary>
    public static LeanTicks Generated(int rows)
    {
        var random = new Random(65);
        var times = new DateTime[rows];
        double[] prices = new double[rows];
        int[] sizes = new int[rows];
        byte[] exchanges = new byte[rows];
        uint[] conditions = new uint[rows];
        DateTime time = new(2024, 1, 2, 9, 30, 0);
        long cents = 4_500_00;
        ReadOnlySpan<byte> venues = "DDDQQZNP"u8;
        uint[] codes = [0x1, 0x1, 0x1, 0x20000020, 0x20000020, 0x20, 0x2000];
        for (int row = 0; row < rows; row++)
        {
            time = time.AddMilliseconds(random.Next(4) == 0 ? 0 : random.Next(1, 400));
            cents += random.Next(-2, 3);
            times[row] = time;
            prices[row] = cents / 100.0;
            sizes[row] = random.Next(10) == 0 ? random.Next(1, 100) : random.Next(50) == 0 ? 100 * random.Next(10, 500) : 100 * random.Next(1, 10);
            exchanges[row] = venues[random.Next(venues.Length)];
            conditions[row] = codes[random.Next(codes.Length)];
        }

        return new LeanTicks("generated", "trade", ["price"], times, [prices], [sizes], exchanges, conditions, new byte[rows], zippedBytes: 0);
    }

    /// <summary>One symbol's days of one kind, read by the tool's Lean reader, times kept on the exchange's clock.</summary>
    private static LeanTicks ReadDays(List<LeanFile> files)
    {
        LeanDay[] days = [.. files.Select(LeanDay.Read)];
        LeanKind kind = files[0].Kind;
        bool quotes = kind == LeanKind.Quote;
        T[] all<T>(Func<LeanDay, T[]> column) => [.. days.SelectMany(column)];
        return new LeanTicks(files[0].Symbol, kind.Name, kind.Prices,
            all(day => Array.ConvertAll(day.Times, ticks => new DateTime(ticks))),
            [.. kind.Prices.Select((_, side) => all(day => day.Prices[side]))],
            [.. kind.Sizes.Select((_, side) => all(day => day.Sizes[side]))],
            all(day => Array.ConvertAll(day.Exchanges, exchange => (byte)exchange[0])),
            all(day => Array.ConvertAll(day.Conditions, condition =>
                uint.Parse(condition, quotes ? NumberStyles.None : NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture))),
            all(day => day.Suspicious),
            files.Sum(file => new FileInfo(file.Path).Length));
    }
}
