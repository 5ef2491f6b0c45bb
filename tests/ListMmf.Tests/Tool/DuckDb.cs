using System;
using System.Globalization;
using DuckDB.NET.Data;

namespace ListMmf.Tests.Tool;

/// <summary>An in-memory DuckDB: a Parquet reader and writer nobody here wrote, to check the tool against.</summary>
public sealed class DuckDb : IDisposable
{
    private readonly DuckDBConnection _connection = new("DataSource=:memory:");

    public DuckDb() => _connection.Open();

    public void Execute(string sql)
    {
        using DuckDBCommand command = _connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    /// <summary>The first row's values, each as invariant text (times as yyyy-MM-dd HH:mm:ss.fffffff), so they compare with what the table holds.</summary>
    public string[] Row(string sql)
    {
        using DuckDBCommand command = _connection.CreateCommand();
        command.CommandText = sql;
        using DuckDBDataReader reader = command.ExecuteReader();
        if (!reader.Read())
        {
            throw new InvalidOperationException($"no row: {sql}");
        }

        var values = new string[reader.FieldCount];
        for (int i = 0; i < values.Length; i++)
        {
            values[i] = reader.GetValue(i) switch
            {
                DateTime time => time.ToString("yyyy-MM-dd HH:mm:ss.fffffff", CultureInfo.InvariantCulture),
                IFormattable number => number.ToString(null, CultureInfo.InvariantCulture),
                var other => other.ToString()!,
            };
        }

        return values;
    }

    /// <summary>A path in DuckDB's SQL: quoted, with the separators it takes on every system.</summary>
    public static string Quote(string path) => $"'{path.Replace('\\', '/').Replace("'", "''", StringComparison.Ordinal)}'";

    public void Dispose() => _connection.Dispose();
}
