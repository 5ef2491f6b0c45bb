using System;
using System.Collections.Generic;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// What a <see cref="TimeSeriesCatalog"/> holds: the period of its partitions and its kinds of data (trades,
/// quotes, bars), each a <see cref="TimeSeriesTableSchema"/> that every instrument's partitions of that kind share.
/// A kind's position is its rank in a replay: of rows at one time, those of an earlier kind come first.
/// </summary>
/// <example>
/// <code>
/// var schema = new TimeSeriesCatalogSchema(CatalogPeriod.Day)
///     .Add("trades", new TimeSeriesTableSchema("time", DataType.DateTime).Add&lt;double&gt;("price").Add&lt;int&gt;("size"))
///     .Add("quotes", new TimeSeriesTableSchema("time", DataType.DateTime).Add&lt;double&gt;("bid").Add&lt;double&gt;("ask"));
/// </code>
/// </example>
public sealed class TimeSeriesCatalogSchema
{
    private readonly List<string> _kinds = [];
    private readonly Dictionary<string, TimeSeriesTableSchema> _schemas = new(StringComparer.Ordinal);

    /// <summary>Describes a catalog partitioned by <paramref name="period"/>, with no kinds yet.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="period"/> is not a <see cref="CatalogPeriod"/>.</exception>
    public TimeSeriesCatalogSchema(CatalogPeriod period)
    {
        if (!Enum.IsDefined(period))
        {
            throw new ArgumentOutOfRangeException(nameof(period), period, "Unknown period.");
        }

        Period = period;
    }

    /// <summary>The span of time each partition holds.</summary>
    public CatalogPeriod Period { get; }

    /// <summary>The kinds, in the order they were added: their rank among rows of one time.</summary>
    public IReadOnlyList<string> Kinds => _kinds;

    /// <summary>The schema of <paramref name="kind"/>'s tables.</summary>
    /// <exception cref="ArgumentException">The catalog has no such kind.</exception>
    public TimeSeriesTableSchema SchemaOf(string kind) => _schemas.TryGetValue(kind, out TimeSeriesTableSchema? schema)
        ? schema
        : throw new ArgumentException($"The catalog has no kind '{kind}'; its kinds are {string.Join(", ", _kinds)}.", nameof(kind));

    /// <summary>The position of <paramref name="kind"/> among the kinds, or -1.</summary>
    internal int IndexOf(string kind) => _kinds.IndexOf(kind);

    /// <summary>Adds the kind <paramref name="kind"/>, whose partitions are tables of <paramref name="schema"/>.</summary>
    /// <exception cref="ArgumentException">The kind is no portable folder name, or the catalog already has it
    /// (kinds are compared ignoring case, as some file systems compare folder names).</exception>
    /// <exception cref="ArgumentNullException"><paramref name="schema"/> is null.</exception>
    public TimeSeriesCatalogSchema Add(string kind, TimeSeriesTableSchema schema)
    {
        ArgumentNullException.ThrowIfNull(kind);
        ArgumentNullException.ThrowIfNull(schema);
        if (PortableFileName.ProblemWith(kind) is { } problem)
        {
            throw new ArgumentException($"The kind '{kind}' {problem}; it names a folder of the catalog.", nameof(kind));
        }

        if (schema.Order == TimeSeriesOrder.None)
        {
            throw new ArgumentException($"The kind '{kind}' keeps its times in no order; a catalog replays and partitions " +
                "each instrument's rows by time, so its kinds are Ascending or AscendingOrEqual.", nameof(schema));
        }

        if (TimeSeriesCatalog.IsOwnFileName(kind))
        {
            throw new ArgumentException($"The kind '{kind}' is a name the catalog uses for its own files.", nameof(kind));
        }

        if (_kinds.Exists(existing => string.Equals(existing, kind, StringComparison.OrdinalIgnoreCase)))
        {
            throw new ArgumentException($"The catalog already has a kind '{kind}' (kinds are compared ignoring case).", nameof(kind));
        }

        _kinds.Add(kind);
        _schemas.Add(kind, schema);
        return this;
    }
}
