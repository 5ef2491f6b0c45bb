using System;
using System.Collections.Generic;
using System.IO;
using Microsoft.Data.Sqlite;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// SQLite set up as its documentation recommends for this job:
/// <list type="bullet">
/// <item>the load runs with no journal, no syncs, a 1 GiB page cache and temporary data in memory (a load that fails
/// is simply run again), in one transaction through a prepared statement; the index on time is built after it; then
/// the database goes to WAL with <c>synchronous = full</c>, so that every later commit is durable;</item>
/// <item>reads go through a memory map as large as SQLite allows (<c>mmap_size</c>), and a loop of queries runs in
/// one read transaction (<see cref="ReadScope"/>) instead of one per query;</item>
/// <item>a row's index is its rowid less one (rowids count from 1 in insertion order); an index on time orders equal
/// times by rowid, so its first entry at or after T is the first such tick;</item>
/// <item>rows are stored in time order, so a time range is a rowid range: sums read the table by rowid between the
/// two ends the index finds, not through the index row by row.</item>
/// </list>
/// </summary>
internal sealed class SqlitePeer(string folder) : IPeerStore
{
    private SqliteConnection? _connection;
    private SqliteCommand? _echo;
    private SqliteCommand? _first;
    private SqliteCommand? _sums;
    private SqliteCommand? _count;
    private long _rows;

    public string Name => "SQLite";

    public string Folder => folder;

    public bool HasBatch => false;

    public bool HasQueryLanguage => true;

    /// <summary>The memory map's size SQLite settled on (it caps what it is asked for at its compiled-in maximum).</summary>
    public long MmapBytes { get; private set; }

    private string DatabasePath => Path.Combine(folder, "ticks.db");

    public long Load(string csv)
    {
        Directory.CreateDirectory(folder);
        _connection = new SqliteConnection($"Data Source={DatabasePath};Pooling=False");
        _connection.Open();
        Execute("pragma journal_mode = off");
        Execute("pragma synchronous = off");
        Execute("pragma cache_size = -1048576");
        Execute("pragma temp_store = memory");
        Execute("create table ticks (time integer not null, price real not null, size integer not null)");
        Insert(TickCsvReader.Read(csv));
        Execute("create index ticks_time on ticks (time)");
        Execute("pragma journal_mode = wal");
        Execute("pragma synchronous = full");
        _connection.Dispose();
        Open();
        return _rows;
    }

    public void Close()
    {
        _echo?.Dispose();
        _first?.Dispose();
        _sums?.Dispose();
        _count?.Dispose();
        _connection?.Dispose();
        _echo = _first = _sums = _count = null;
        _connection = null;
    }

    public void Open()
    {
        _connection = new SqliteConnection($"Data Source={DatabasePath};Pooling=False");
        _connection.Open();
        Execute("pragma synchronous = full");
        Execute("pragma cache_size = -1048576");
        MmapBytes = Scalar("pragma mmap_size = 1099511627776");
        // The row count (the answer when no tick is at or after a time): rows are numbered from 1 as loaded, so the
        // last rowid, one walk down the table's right edge; count(*) would read the whole table before the first lookup.
        _rows = Scalar("select coalesce(max(rowid), 0) from ticks");
        _echo = Prepare("select $a", "$a");
        _first = Prepare($"select coalesce({FirstRowid("$a")}, $n) - 1", "$a", "$n");
        _sums = Prepare(
            $"select total(price * size), total(size) from ticks where rowid >= coalesce({FirstRowid("$a")}, $n) " +
            $"and rowid < coalesce({FirstRowid("$b")}, $n)",
            "$a",
            "$b",
            "$n");
        _count = Prepare("select count(*) from ticks where price >= $p and size >= $s", "$p", "$s");
    }

    public IDisposable ReadScope() => new ReadTransaction(_connection!);

    public long Echo(int value)
    {
        _echo!.Parameters[0].Value = value;
        return (long)_echo.ExecuteScalar()!;
    }

    public long FirstAtOrAfter(int time)
    {
        _first!.Parameters[0].Value = time;
        _first.Parameters[1].Value = _rows + 1;
        return (long)_first.ExecuteScalar()!;
    }

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results)
    {
        for (int i = 0; i < times.Length; i++)
        {
            results[i] = FirstAtOrAfter(times[i]);
        }
    }

    public double Turnover(int from, int to) => Sums(from, to).Turnover;

    /// <summary>Each hour's sums by its rowid range, hour after hour: a group by over an expression would sort the whole table.</summary>
    public HourVwap[] HourlyVwap()
    {
        var hours = new List<HourVwap>();
        // Not count(*): that reads the whole index, and would be timed as part of the VWAP.
        if (Scalar("select exists (select 1 from ticks)") == 0)
        {
            return [];
        }

        int first = (int)Scalar("select time from ticks where rowid = (select min(rowid) from ticks)") / 3600;
        int last = (int)Scalar("select time from ticks where rowid = (select max(rowid) from ticks)") / 3600;
        for (int hour = first; hour <= last; hour++)
        {
            (double turnover, double size) = Sums(hour * 3600, (hour + 1) * 3600);
            if (size > 0)
            {
                hours.Add(new HourVwap(hour, turnover / size));
            }
        }

        return hours.ToArray();
    }

    public long CountWhere(double price, int size)
    {
        _count!.Parameters[0].Value = price;
        _count.Parameters[1].Value = size;
        return (long)_count.ExecuteScalar()!;
    }

    /// <summary>One transaction of single-row inserts; its commit, in WAL mode with synchronous = full, syncs the log.</summary>
    public void Append(TickRow[] rows) => Insert(rows);

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose() => Close();

    /// <summary>The rowid of the first tick at or after the time in <paramref name="parameter"/>, found through the index on time.</summary>
    private static string FirstRowid(string parameter) => $"(select rowid from ticks where time >= {parameter} order by time limit 1)";

    private (double Turnover, double Size) Sums(int from, int to)
    {
        _sums!.Parameters[0].Value = from;
        _sums.Parameters[1].Value = to;
        _sums.Parameters[2].Value = _rows + 1;
        using SqliteDataReader reader = _sums.ExecuteReader();
        reader.Read();
        return (reader.GetDouble(0), reader.GetDouble(1));
    }

    private void Insert(IEnumerable<TickRow> rows)
    {
        using SqliteTransaction transaction = _connection!.BeginTransaction();
        using SqliteCommand insert = Prepare("insert into ticks (time, price, size) values ($t, $p, $s)", "$t", "$p", "$s");
        insert.Transaction = transaction;
        foreach (TickRow row in rows)
        {
            insert.Parameters[0].Value = row.Time;
            insert.Parameters[1].Value = row.Price;
            insert.Parameters[2].Value = row.Size;
            insert.ExecuteNonQuery();
            _rows++;
        }

        transaction.Commit();
    }

    private SqliteCommand Prepare(string sql, params string[] names)
    {
        SqliteCommand command = _connection!.CreateCommand();
        command.CommandText = sql;
        foreach (string name in names)
        {
            command.Parameters.Add(new SqliteParameter(name, 0));
        }

        command.Prepare();
        return command;
    }

    private long Scalar(string sql)
    {
        using SqliteCommand command = _connection!.CreateCommand();
        command.CommandText = sql;
        return (long)command.ExecuteScalar()!;
    }

    private void Execute(string sql)
    {
        using SqliteCommand command = _connection!.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    /// <summary>One read transaction around a loop of queries: each query then skips taking and dropping its own.</summary>
    private sealed class ReadTransaction : IDisposable
    {
        private readonly SqliteConnection _connection;

        public ReadTransaction(SqliteConnection connection)
        {
            _connection = connection;
            Run("begin");
        }

        public void Dispose() => Run("commit");

        private void Run(string sql)
        {
            using SqliteCommand command = _connection.CreateCommand();
            command.CommandText = sql;
            command.ExecuteNonQuery();
        }
    }
}
