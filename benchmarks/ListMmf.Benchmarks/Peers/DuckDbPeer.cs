using System;
using System.IO;
using DuckDB.NET.Data;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// DuckDB, as its documentation recommends for this job: the CSV loaded with <c>read_csv</c> (types given) into a
/// table in time order, so that every row group's min/max (zone map) prunes the scans of a time filter; prepared
/// statements; a row's index is its <c>rowid</c> (insertion order). Batched lookups are one ASOF join against the
/// targets.
/// </summary>
internal sealed class DuckDbPeer(string folder) : IPeerStore
{
    private DuckDBConnection? _connection;
    private DuckDBCommand? _first;
    private DuckDBCommand? _turnover;
    private long _rows;

    public string Name => "DuckDB";

    public bool HasBatch => true;

    private string DatabasePath => Path.Combine(folder, "ticks.duckdb");

    public long Load(string csv)
    {
        Directory.CreateDirectory(folder);
        _connection = new DuckDBConnection($"DataSource={DatabasePath}");
        _connection.Open();
        Execute($"create table ticks as select * from read_csv('{Sql(csv)}', header = true, columns = {{'time': 'INTEGER', 'price': 'DOUBLE', 'size': 'INTEGER'}})");
        Execute("checkpoint");
        _rows = Count();

        // The first tick at or after T: the rows are in time order, so the smallest rowid whose time qualifies; the
        // top-1 lets DuckDB stop at the first row group whose zone map holds it.
        _first = Prepare("select rowid from ticks where time >= $1 order by time, rowid limit 1", 1);
        _turnover = Prepare("select sum(price * size) from ticks where time >= $1 and time < $2", 2);
        return _rows;
    }

    public long FirstAtOrAfter(int time)
    {
        _first!.Parameters[0].Value = time;
        return _first.ExecuteScalar() is long rowid ? rowid : _rows;
    }

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results)
    {
        Execute("create or replace temp table targets (i integer, t integer)");
        using (DuckDBAppender append = _connection!.CreateAppender("targets"))
        {
            for (int i = 0; i < times.Length; i++)
            {
                append.CreateRow().AppendValue(i).AppendValue(times[i]).EndRow();
            }
        }

        // ASOF takes, for each target, the row with the nearest key at or after it. Among equal times it may take any
        // row, so the key is the time and the rowid in one bigint: the nearest key is the first row of the nearest time.
        results.Fill(_rows);
        using DuckDBCommand join = _connection.CreateCommand();
        join.CommandText = """
            select targets.i, ticks.rowid
            from targets asof join (select (time::bigint << 32) + rowid as k, rowid from ticks) as ticks on ticks.k >= (targets.t::bigint << 32)
            """;
        using DuckDBDataReader reader = join.ExecuteReader();
        while (reader.Read())
        {
            results[reader.GetInt32(0)] = reader.GetInt64(1);
        }
    }

    public double Turnover(int from, int to)
    {
        _turnover!.Parameters[0].Value = from;
        _turnover.Parameters[1].Value = to;
        return _turnover.ExecuteScalar() is double sum ? sum : 0;
    }

    public void Append(TickRow[] rows)
    {
        using (DuckDBAppender append = _connection!.CreateAppender("ticks"))
        {
            foreach (TickRow row in rows)
            {
                append.CreateRow().AppendValue(row.Time).AppendValue(row.Price).AppendValue(row.Size).EndRow();
            }
        }

        // The appender's close commits to the write-ahead log; the checkpoint writes the table file and syncs it.
        Execute("checkpoint");
        _rows += rows.Length;
    }

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose()
    {
        _first?.Dispose();
        _turnover?.Dispose();
        _connection?.Dispose();
    }

    private long Count()
    {
        using DuckDBCommand command = _connection!.CreateCommand();
        command.CommandText = "select count(*) from ticks";
        return (long)command.ExecuteScalar()!;
    }

    private DuckDBCommand Prepare(string sql, int parameters)
    {
        DuckDBCommand command = _connection!.CreateCommand();
        command.CommandText = sql;
        for (int i = 0; i < parameters; i++)
        {
            command.Parameters.Add(new DuckDBParameter(0));
        }

        command.Prepare();
        return command;
    }

    private void Execute(string sql)
    {
        using DuckDBCommand command = _connection!.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    private static string Sql(string path) => path.Replace('\\', '/').Replace("'", "''", StringComparison.Ordinal);
}
