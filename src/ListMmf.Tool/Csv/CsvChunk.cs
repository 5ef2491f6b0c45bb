using System;
using System.Buffers;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using ListMmf.Interop;
using ListMmf.Tool.Import;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Tool.Csv;

/// <summary>
/// A part of a CSV file that holds whole lines, parsed on a worker thread by the simple rules of a file without
/// quotes (a line ends at '\n', a '\r' before it is dropped, fields end at ','); the rows go into batches, and the
/// first bad row stops the parse with its refusal. A line with a quote or a lone '\r' needs CsvHelper's full rules:
/// the chunk says so, and the import reads on from its start with them.
/// </summary>
internal sealed class CsvChunk(int index, long start, long end)
{
    private byte[]? _bytes;

    public int Index { get; } = index;

    /// <summary>The file offset of the chunk's first byte: the start of a line.</summary>
    public long Start { get; } = start;

    /// <summary>The file offset just past the chunk's last line.</summary>
    public long End { get; } = end;

    /// <summary>The physical lines the parse went through, the refused one included.</summary>
    public int Lines { get; private set; }

    public List<CsvBatch> Batches { get; } = [];

    /// <summary>
    /// The time of the chunk's first row, when it passed every check the chunk can make alone: whether it may follow
    /// the row before the chunk is for the importing thread to check.
    /// </summary>
    public long? FirstTicks { get; private set; }

    /// <summary>The time of the chunk's last row kept.</summary>
    public long LastTicks { get; private set; } = long.MinValue;

    /// <summary>The first row refused, or null.</summary>
    public CsvRowError? Error { get; private set; }

    /// <summary>Whether a line of the chunk needs CsvHelper's rules (a quote or a lone '\r'); then nothing of it was kept.</summary>
    public bool NeedsCsvRules { get; private set; }

    /// <summary>What stopped the worker (an I/O error), for the importing thread to throw.</summary>
    public Exception? Failure { get; set; }

    /// <summary>Set once the chunk is parsed (or failed).</summary>
    public ManualResetEventSlim Done { get; } = new();

    /// <summary>Whether <see cref="Release"/> has given its memory back.</summary>
    public bool IsReleased { get; private set; }

    private int Length => (int)(End - Start);

    /// <summary>
    /// Reads the chunk's bytes and parses them into batches from <paramref name="rent"/>, each time checked against
    /// the one before it in the chunk (<see cref="TableImport.TimeProblem(long, long)"/>) and, for a seconds table,
    /// turned into seconds, so that publishing them is a copy.
    /// </summary>
    public void Parse(SafeFileHandle file, CsvLayout layout, TimeFormat format, TableImport import, Func<CsvBatch> rent)
    {
        _bytes = ArrayPool<byte>.Shared.Rent(Length);
        Span<byte> bytes = _bytes.AsSpan(0, Length);
        if (PositionalRead.Fill(file, bytes, Start) < bytes.Length)
        {
            throw new EndOfStreamException($"'{layout.Request.Csv}' ended before byte {End:N0} while it was read.");
        }

        Span<Range> fields = stackalloc Range[layout.FieldsNeeded];
        CsvBatch? batch = null;
        try
        {
            ParseLines(bytes, fields, layout, format, import, rent, ref batch);
        }
        finally
        {
            Finish(batch, import);
        }
    }

    private void ParseLines(
        ReadOnlySpan<byte> bytes,
        Span<Range> fields,
        CsvLayout layout,
        TimeFormat format,
        TableImport import,
        Func<CsvBatch> rent,
        ref CsvBatch? batch)
    {
        var lines = new CsvLineReader(bytes, CsvLineReader.HasSeparatorsOnly(bytes));
        while (lines.Next(fields, out ReadOnlySpan<byte> line, out int fieldCount, out bool plain))
        {
            Lines++;
            if (!plain)
            {
                NeedsCsvRules = true;
                Batches.Clear();
                return;
            }

            if (line.IsEmpty)
            {
                continue;
            }

            if (fieldCount != layout.HeaderFields)
            {
                Error = new CsvRowError(Lines, layout.FieldCountProblem(fieldCount));
                return;
            }

            ReadOnlySpan<byte> time = line[fields[layout.TimeField]];
            if (!format.TryParse(time, out long ticks, out string? problem))
            {
                Error = new CsvRowError(Lines, CsvLayout.TimeProblem(time, problem!));
                return;
            }

            if (import.TimeProblem(ticks, LastTicks) is { } wrong)
            {
                Error = new CsvRowError(Lines, CsvLayout.TimeProblem(time, wrong));
                return;
            }

            FirstTicks ??= ticks;
            if (batch is null || batch.IsFull)
            {
                Finish(batch, import);
                batch = rent();
                Batches.Add(batch);
            }

            for (int c = 0; c < batch.Sinks.Length; c++)
            {
                ReadOnlySpan<byte> value = line[fields[layout.Fields[c]]];
                if (!batch.Sinks[c].TryParse(value, batch.Count))
                {
                    Error = new CsvRowError(Lines, layout.ValueProblem(c, value));
                    return;
                }
            }

            batch.Times[batch.Count++] = ticks;
            LastTicks = ticks;
        }
    }

    /// <summary>A batch the parse is done with: its times as the table stores them.</summary>
    private static void Finish(CsvBatch? batch, TableImport import)
    {
        if (batch is not null && import.HoldsSeconds)
        {
            TableImport.ToSeconds(batch.Times, batch.Count);
        }
    }

    /// <summary>
    /// The line and the time field of the chunk's row <paramref name="row"/> (counting rows, not lines), for the
    /// refusal of a time the parse accepted but the table does not (out of order).
    /// </summary>
    public (int Line, string Time) Locate(long row, CsvLayout layout)
    {
        Span<Range> fields = stackalloc Range[layout.FieldsNeeded];
        ReadOnlySpan<byte> bytes = _bytes.AsSpan(0, Length);
        var reader = new CsvLineReader(bytes, CsvLineReader.HasSeparatorsOnly(bytes));
        int lines = 0;
        long rows = 0;
        while (reader.Next(fields, out ReadOnlySpan<byte> line, out _, out _))
        {
            lines++;
            if (!line.IsEmpty && rows++ == row)
            {
                return (lines, CsvLayout.Excerpt(line[fields[layout.TimeField]]));
            }
        }

        throw new InvalidOperationException($"The chunk at byte {Start:N0} has no row {row:N0}.");
    }

    /// <summary>Gives the bytes and the batches back, for the next chunks.</summary>
    public void Release(Action<CsvBatch> recycle)
    {
        if (IsReleased)
        {
            return;
        }

        IsReleased = true;
        foreach (CsvBatch batch in Batches)
        {
            batch.Count = 0;
            recycle(batch);
        }

        Batches.Clear();
        if (_bytes is not null)
        {
            ArrayPool<byte>.Shared.Return(_bytes);
            _bytes = null;
        }

        Done.Dispose();
    }
}

/// <summary>The first row a chunk refused: its line within the chunk, and the problem.</summary>
internal sealed record CsvRowError(int Line, string Problem);
