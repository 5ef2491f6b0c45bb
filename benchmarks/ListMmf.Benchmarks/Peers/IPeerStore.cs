using System;

namespace ListMmf.Benchmarks.Peers;

/// <summary>One store in the peers comparison: its files, its load and its append, beside the questions it answers.</summary>
internal interface IPeerStore : IPeerQueries, IDisposable
{
    /// <summary>The folder holding every file of the store.</summary>
    string Folder { get; }

    /// <summary>Loads the generated CSV into a new store; returns the rows loaded.</summary>
    long Load(string csv);

    /// <summary>Closes the store: no file of it stays open or mapped, and no cache of it stays in the process.</summary>
    void Close();

    /// <summary>Opens the store <see cref="Close"/> closed, as a process starting would, without reading ahead.</summary>
    void Open();

    /// <summary>Waits for what the store goes on doing on its own after a cold start (an index built in the background), so that the next store is timed alone.</summary>
    void Settle()
    {
    }

    /// <summary>Appends the rows one at a time, then makes them durable, the store's fastest way.</summary>
    void Append(TickRow[] rows);

    /// <summary>The bytes the store's files take on disk (allocated blocks).</summary>
    long DiskBytes();
}

/// <summary>One tick.</summary>
internal readonly record struct TickRow(int Time, double Price, int Size);
