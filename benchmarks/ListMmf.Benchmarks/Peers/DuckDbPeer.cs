using System;
using System.Collections.Generic;
using System.IO;
using DuckDB.NET.Data;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// DuckDB set up as its documentation recommends for this job:
/// <list type="bullet">
/// <item>the CSV loaded with <c>read_csv</c> (types given) into a table in time order, so that every row group's
/// min/max (zone map) prunes a time filter's scan;</item>
/// <item>the first tick at or after T is <c>where time >= $1 limit 1</c>: with insertion order preserved (the
/// default), a limit without an order by stops at the first qualifying row in table order, which is the first such
/// tick; an <c>order by</c> would make it read every row of the qualifying row groups to sort them;</item>
/// <item>batched lookups are an ASOF join against a stored table of the first row of each time (built once, as an
/// index would be), not against a key computed over the whole table in every call;</item>
/// <item>a row's index is its <c>rowid</c> (insertion order); prepared statements throughout;</item>
/// <item>an append commits once: the commit syncs the write-ahead log, which makes the rows durable (a
/// checkpoint would only rewrite them into the table file).</item>
/// </list>
/// </summary>
internal sealed class DuckDbPeer(string folder) : IPeerStore
{
    private DuckDBConnection? _connection;
    private DuckDBCommand? _echo;
    private DuckDBCommand? _first;
    private DuckDBCommand? _turnover;
    private DuckDBCommand? _count;
    private DuckDBCommand? _lastPrices;
    private long _rows;
    private long _firstsRows = -1;

    public string Name => "DuckDB";

    public string Folder => folder;

    public bool HasBatch => true;

    public bool HasQueryLanguage => true;

    private string DatabasePath => Path.Combine(folder, "ticks.duckdb");

    public long Load(string csv)
    {
        Directory.CreateDirectory(folder);
        Connect();
        Execute($"create table ticks as select * from read_csv('{Sql(csv)}', header = true, columns = {{'time': 'INTEGER', 'price': 'DOUBLE', 'size': 'INTEGER'}})");
        _rows = Count();
        Execute("checkpoint");
        return _rows;
    }

    /// <summary>
    /// Builds the table of each time's first row that the batched lookups join against, as an index would be built
    /// after a load; timed apart from the load, which is <c>read_csv</c>'s alone.
    /// </summary>
    public TimeSpan PrepareBatches()
    {
        long start = System.Diagnostics.Stopwatch.GetTimestamp();
        BuildFirsts();
        Execute("checkpoint");
        return System.Diagnostics.Stopwatch.GetElapsedTime(start);
    }

    public void Close()
    {
        _echo?.Dispose();
        _first?.Dispose();
        _turnover?.Dispose();
        _count?.Dispose();
        _lastPrices?.Dispose();
        _connection?.Dispose();
        _echo = _first = _turnover = _count = _lastPrices = null;
        _connection = null;
    }

    public void Open() => Connect();

    /// <summary>Nothing: DuckDB's reads need no explicit transaction, and its default is a thread per core.</summary>
    public IDisposable ReadScope() => NoScope.Instance;

    /// <summary>Runs the queries inside the returned scope on one thread: what DuckDB costs where no core is spare.</summary>
    public IDisposable OneThread()
    {
        Execute("set threads = 1");
        return new Reset(this);
    }

    public long Echo(int value)
    {
        _echo!.Parameters[0].Value = value;
        return (int)_echo.ExecuteScalar()!;
    }

    public long FirstAtOrAfter(int time)
    {
        _first!.Parameters[0].Value = time;
        return _first.ExecuteScalar() is long rowid ? rowid : _rows;
    }

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results)
    {
        if (_firstsRows != _rows)
        {
            BuildFirsts();
        }

        Execute("create or replace temp table targets (i integer, t integer)");
        using (DuckDBAppender append = _connection!.CreateAppender("targets"))
        {
            for (int i = 0; i < times.Length; i++)
            {
                append.CreateRow().AppendValue(i).AppendValue(times[i]).EndRow();
            }
        }

        // ASOF takes, for each target, the nearest time at or after it; firsts holds each time's first row.
        results.Fill(_rows);
        using DuckDBCommand join = _connection.CreateCommand();
        join.CommandText = "select targets.i, firsts.row from targets asof join firsts on firsts.time >= targets.t";
        using DuckDBDataReader reader = join.ExecuteReader();
        while (reader.Read())
        {
            results[reader.GetInt32(0)] = reader.GetInt64(1);
        }
    }

    /// <summary>
    /// DuckDB's own ASOF join, against the table of each time's first row: the last tick at or before T is the one
    /// before the first at or after T + 1.
    /// </summary>
    public void LastAtOrBefore(ReadOnlySpan<int> times, Span<long> results)
    {
        int[] next = new int[times.Length];
        for (int i = 0; i < times.Length; i++)
        {
            next[i] = times[i] + 1;
        }

        FirstAtOrAfter(next, results);
        foreach (ref long result in results[..times.Length])
        {
            result--;
        }
    }

    public bool HasAnalytics => true;

    /// <summary>
    /// The bars grouped on <c>time // 60</c>: the times are integer seconds, so a division is what
    /// <c>time_bucket</c> would do after converting each to a timestamp, without the conversion. The first and last
    /// prices are <c>arg_min</c> and <c>arg_max</c> by <c>rowid</c>, since ticks of equal times keep their row order.
    /// </summary>
    public OhlcvBar[] MinuteBars()
    {
        using DuckDBCommand command = _connection!.CreateCommand();
        command.CommandText = "select time // 60 as minute, min(rowid), max(rowid), arg_min(price, rowid), max(price), min(price), " +
            "arg_max(price, rowid), sum(size)::double, sum(price * size) from ticks group by minute order by minute";
        using DuckDBDataReader reader = command.ExecuteReader();
        var bars = new List<OhlcvBar>();
        while (reader.Read())
        {
            bars.Add(new OhlcvBar(DateTime.UnixEpoch.AddMinutes(reader.GetInt32(0)), new IndexRange(reader.GetInt64(1), reader.GetInt64(2) + 1),
                reader.GetDouble(3), reader.GetDouble(4), reader.GetDouble(5), reader.GetDouble(6), reader.GetDouble(7), reader.GetDouble(8)));
        }

        return bars.ToArray();
    }

    /// <summary>
    /// The first <paramref name="rows"/> ticks dealt to <paramref name="instruments"/> instruments in turn, as one
    /// table with a symbol column (DuckDB's layout for many instruments), each row keeping its tick's row.
    /// </summary>
    public void PrepareInstruments(int instruments, long rows)
    {
        Execute($"create or replace table instruments as select (rowid % {instruments})::integer as symbol, time, price, rowid as row from ticks where rowid < {rows} order by rowid");
        Execute("checkpoint");
    }

    /// <summary>Each instrument's last price at or before <paramref name="time"/>, by <c>arg_max</c>; NaN where it has none.</summary>
    public void LastPrices(int time, Span<double> prices)
    {
        prices.Fill(double.NaN);
        _lastPrices ??= Prepare("select symbol, arg_max(price, row) from instruments where time <= $1 group by symbol", 1);
        _lastPrices.Parameters[0].Value = time;
        using DuckDBDataReader reader = _lastPrices.ExecuteReader();
        while (reader.Read())
        {
            prices[reader.GetInt32(0)] = reader.GetDouble(1);
        }
    }

    public double Turnover(int from, int to)
    {
        _turnover!.Parameters[0].Value = from;
        _turnover.Parameters[1].Value = to;
        return _turnover.ExecuteScalar() is double sum ? sum : 0;
    }

    public HourVwap[] HourlyVwap()
    {
        using DuckDBCommand command = _connection!.CreateCommand();
        command.CommandText = "select time // 3600 as hour, sum(price * size) / sum(size) from ticks group by hour order by hour";
        using DuckDBDataReader reader = command.ExecuteReader();
        var hours = new List<HourVwap>();
        while (reader.Read())
        {
            hours.Add(new HourVwap(reader.GetInt32(0), reader.GetDouble(1)));
        }

        return hours.ToArray();
    }

    public long CountWhere(double price, int size)
    {
        _count!.Parameters[0].Value = price;
        _count.Parameters[1].Value = size;
        return (long)_count.ExecuteScalar()!;
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

        _rows += rows.Length;
    }

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose() => Close();

    private void Connect()
    {
        _connection = new DuckDBConnection($"DataSource={DatabasePath}");
        _connection.Open();
        _echo = Prepare("select $1::integer", 1);
        _first = Prepare("select rowid from ticks where time >= $1 limit 1", 1);
        _turnover = Prepare("select sum(price * size) from ticks where time >= $1 and time < $2", 2);
        _count = Prepare("select count(*) from ticks where price >= $1 and size >= $2", 2);
    }

    /// <summary>The first row of each time, in time order: what the batched lookups' ASOF join runs against.</summary>
    private void BuildFirsts()
    {
        Execute("create or replace table firsts as select time, min(rowid) as row from ticks group by time order by time");
        _firstsRows = _rows;
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

    private sealed class Reset(DuckDbPeer peer) : IDisposable
    {
        public void Dispose() => peer.Execute("reset threads");
    }
}
