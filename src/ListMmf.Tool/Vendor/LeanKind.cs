using System;
using System.Collections.Generic;
using System.Linq;
using ListMmf.Tool.CatalogImport;

namespace ListMmf.Tool.Vendor;

/// <summary>
/// A kind of file QuantConnect Lean ships for US equities, and the catalog kind its rows become: the CSV's fields
/// (no header; times in milliseconds since the exchange's midnight, prices times 10,000) and the table columns they
/// fill. Tick trades and quotes, and the vendor's one-minute trade bars.
/// </summary>
internal sealed class LeanKind
{
    /// <summary>Trades: ms, price, size, exchange, sale condition, suspicious.</summary>
    public static readonly LeanKind Trade = new("trade", "trade_tick", prices: ["price"], sizes: ["size"], volume: null, ticks: true);

    /// <summary>Quotes, a row updating one side or both: ms, bid, bid size, ask, ask size, exchange, condition, suspicious.</summary>
    public static readonly LeanKind Quote = new("quote", "quote_tick", prices: ["bid", "ask"], sizes: ["bid_size", "ask_size"], volume: null,
        ticks: true);

    /// <summary>The vendor's one-minute trade bars, timed at the minute's start: ms, open, high, low, close, volume.</summary>
    public static readonly LeanKind TradeMinute = new("trade_minute", "minute_trade", prices: ["open", "high", "low", "close"], sizes: [],
        volume: "volume", ticks: false);

    /// <summary>Every kind, in the order a new catalog ranks them (a trade before a quote of the same time).</summary>
    public static IReadOnlyList<LeanKind> All { get; } = [Trade, Quote, TradeMinute];

    private LeanKind(string name, string fileTag, string[] prices, string[] sizes, string? volume, bool ticks)
    {
        Name = name;
        FileTag = fileTag;
        Prices = prices;
        Sizes = sizes;
        Volume = volume;
        IsTicks = ticks;
        Fields = 1 + (ticks ? 2 * prices.Length + 3 : prices.Length + 1);
    }

    /// <summary>The catalog kind's name.</summary>
    public string Name { get; }

    /// <summary>How Lean's CSV names end, as <c>_Trade_Tick</c> or <c>_minute_trade</c> (compared ignoring case and '_').</summary>
    public string FileTag { get; }

    /// <summary>The price columns: a tick's sides (each followed by its size in the CSV), or a bar's open, high, low and close.</summary>
    public string[] Prices { get; }

    /// <summary>A tick's size columns, one a price (Int32).</summary>
    public string[] Sizes { get; }

    /// <summary>A bar's volume column (Int64); null for ticks.</summary>
    public string? Volume { get; }

    /// <summary>Whether rows are ticks, with an exchange, a condition and a suspicious flag after the prices.</summary>
    public bool IsTicks { get; }

    /// <summary>How many fields every row has.</summary>
    public int Fields { get; }

    /// <summary>
    /// The table every partition of the kind is: times in UTC as DateTime ticks, equal times allowed (many ticks share
    /// a millisecond); prices as Double; sizes Int32; the exchange and condition as text (a few distinct values).
    /// </summary>
    public TimeSeriesTableSchema Schema()
    {
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.AscendingOrEqual) { TimesAreUtc = true };
        for (int i = 0; i < Prices.Length; i++)
        {
            schema.Add<double>(Prices[i]);
            if (IsTicks)
            {
                schema.Add<int>(Sizes[i]);
            }
        }

        if (Volume is not null)
        {
            schema.Add<long>(Volume);
        }

        if (IsTicks)
        {
            schema.AddText("exchange", DataType.Byte).AddText("condition", DataType.UInt16).Add<byte>("suspicious");
        }

        return schema;
    }

    /// <summary>
    /// What makes <paramref name="schema"/> (a catalog's kind) unlike this kind's, for a message; null when the
    /// rows fit it: the same time column and value columns, names and types, in order.
    /// </summary>
    public string? ProblemWith(TimeSeriesTableSchema schema)
    {
        TimeSeriesTableSchema wanted = Schema();
        return KindSchemas.Describe(schema) == KindSchemas.Describe(wanted)
            ? null
            : $"the catalog's kind '{Name}' is ({KindSchemas.Describe(schema)}); Lean's {FileTag} rows need ({KindSchemas.Describe(wanted)})";
    }

    /// <summary>The kind whose files are named with <paramref name="tag"/> (as <c>Trade_Tick</c>), or null.</summary>
    public static LeanKind? OfTag(string tag) =>
        All.FirstOrDefault(kind => string.Equals(kind.FileTag.Replace("_", ""), tag.Replace("_", ""), StringComparison.OrdinalIgnoreCase));
}
