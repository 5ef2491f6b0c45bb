using System.Collections.Generic;

namespace ListMmf.Tool.Import;

/// <summary>Where an import puts its rows, and what a table it creates looks like.</summary>
/// <param name="Source">The file the rows come from, named in every message.</param>
/// <param name="Output">The table's folder: created, or appended to when it holds a table.</param>
/// <param name="TimeColumn">The time column's name.</param>
/// <param name="Columns">The value columns, in order.</param>
/// <param name="TicksTime">For a new table: a ticks time column (true), seconds (false), or by the source (null).</param>
/// <param name="Order">The order asked for: a new table keeps it, an existing one must have it; null to leave it to
/// the source (a new table) or the table.</param>
/// <param name="Staging">Whether the table is a step another import reads and removes
/// (a catalog import's staging table); false for a table the user keeps.</param>
internal sealed record ImportTarget(
    string Source,
    string Output,
    string TimeColumn,
    IReadOnlyList<ImportColumn> Columns,
    bool? TicksTime,
    TimeSeriesOrder? Order,
    bool Staging = false);
