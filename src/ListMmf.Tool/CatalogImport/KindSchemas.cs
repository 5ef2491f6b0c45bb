using System.Linq;

namespace ListMmf.Tool.CatalogImport;

/// <summary>A catalog kind's table as an import compares it with the rows it brings, in one line.</summary>
internal static class KindSchemas
{
    /// <summary>
    /// The time column and value columns, names and types, in order, then whether times are UTC and the order: two
    /// schemas an import may use alike describe alike (a text column's codes aside, which each table keeps its own).
    /// </summary>
    public static string Describe(TimeSeriesTableSchema schema) =>
        string.Join(", ", schema.Columns.Prepend(schema.Time)
            .Select(column => $"{column.Name} {(column.IsText ? "Text" : column.DataType.ToString())}")) +
        $"{(schema.TimesAreUtc ? ", UTC" : "")}, {schema.Order}";
}
