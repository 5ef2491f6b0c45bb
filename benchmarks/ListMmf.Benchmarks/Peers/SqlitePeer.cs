using System;
using System.IO;
using Microsoft.Data.Sqlite;

namespace ListMmf.Benchmarks.Peers;

/// <summary>
/// SQLite, as its documentation recommends: WAL journal, the rows inserted in one transaction through a prepared
/// statement, the index on time built after the load, prepared queries. A row's index is its rowid less one
/// (rowids count from 1 in insertion order). An index on time orders equal times by rowid, so its first entry at
/// or after T is the first such tick.
/// </summary>
internal sealed class SqlitePeer(string folder) : IPeerStore
{
    private SqliteConnection? _connection;
    private SqliteCommand? _first;
    private SqliteCommand? _turnover;
    private long _rows;

    public string Name => "SQLite";

    public bool HasBatch => false;

    public long Load(string csv)
    {
        Directory.CreateDirectory(folder);
        _connection = new SqliteConnection($"Data Source={Path.Combine(folder, "ticks.db")};Pooling=False");
        _connection.Open();
        Execute("pragma journal_mode = wal");
        Execute("pragma synchronous = full");
        Execute("create table ticks (time integer not null, price real not null, size integer not null)");
        Insert(TickCsvReader.Read(csv));
        Execute("create index ticks_time on ticks (time)");
        Execute("pragma wal_checkpoint(truncate)");
        _first = Prepare("select rowid - 1 from ticks where time >= $a order by time limit 1", "$a");
        _turnover = Prepare("select total(price * size) from ticks where time >= $a and time < $b", "$a", "$b");
        return _rows;
    }

    public long FirstAtOrAfter(int time)
    {
        _first!.Parameters[0].Value = time;
        return _first.ExecuteScalar() is long rowid ? rowid : _rows;
    }

    public void FirstAtOrAfter(ReadOnlySpan<int> times, Span<long> results)
    {
        for (int i = 0; i < times.Length; i++)
        {
            results[i] = FirstAtOrAfter(times[i]);
        }
    }

    public double Turnover(int from, int to)
    {
        _turnover!.Parameters[0].Value = from;
        _turnover.Parameters[1].Value = to;
        return (double)_turnover.ExecuteScalar()!;
    }

    /// <summary>One transaction of single-row inserts; its commit, with synchronous = full, syncs the log.</summary>
    public void Append(TickRow[] rows) => Insert(rows);

    public long DiskBytes() => Disk.AllocatedBytes(folder);

    public void Dispose()
    {
        _first?.Dispose();
        _turnover?.Dispose();
        _connection?.Dispose();
    }

    private void Insert(System.Collections.Generic.IEnumerable<TickRow> rows)
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

    private void Execute(string sql)
    {
        using SqliteCommand command = _connection!.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }
}
