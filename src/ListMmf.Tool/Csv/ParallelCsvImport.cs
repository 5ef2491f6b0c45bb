using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;
using ListMmf.Tool.Import;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Tool.Csv;

/// <summary>
/// The CSV import on every core: the file after its header is cut into chunks of whole lines
/// (<see cref="CsvChunk"/>), workers parse them in any order, and the importing thread publishes them in file order,
/// checking each time against the table (its order, its resolution). A refusal is the first bad row in file order,
/// with its line and column, as the one-thread reader gives it. From the first chunk with a quote or a lone '\r'
/// on, the import goes on with CsvHelper's full rules (<see cref="Run"/> says where).
/// </summary>
internal sealed class ParallelCsvImport : IDisposable
{
    /// <summary>The bytes of a chunk: large enough that the workers rarely wait, small enough that a few in flight take little memory.</summary>
    public const int DefaultChunkBytes = 8 << 20;

    private const int Batch = 1 << 16;
    private const int Probe = 64 * 1024;

    private readonly SafeFileHandle _file;
    private readonly CsvLayout _layout;
    private readonly TimeFormat _format;
    private readonly CsvChunk[] _chunks;
    private readonly ConcurrentBag<CsvBatch> _batches = [];
    private readonly SemaphoreSlim _window;
    private readonly int _workers;
    private int _next;
    private int _stop = int.MaxValue;

    private TableImport? _import;

    private ParallelCsvImport(SafeFileHandle file, CsvLayout layout, TimeFormat format, CsvChunk[] chunks, int workers)
    {
        _file = file;
        _layout = layout;
        _format = format;
        _chunks = chunks;
        _workers = workers;
        _window = new SemaphoreSlim(2 * workers);
    }

    /// <inheritdoc/>
    public void Dispose() => _window.Dispose();

    /// <summary>The time format: the one asked for, or the one the first row's time shows.</summary>
    public TimeFormat Format => _format;

    /// <summary>
    /// Plans the chunks of <paramref name="file"/>; null where the plain rules cannot start (one core, a header line
    /// or a first row with a quote or a lone '\r', a first row that is empty or has another field count than the header, no row at all): the
    /// one-thread reader then reads the whole file, and refuses what it must.
    /// </summary>
    public static ParallelCsvImport? TryPlan(SafeFileHandle file, CsvLayout layout, TimeFormat? format, int chunkBytes)
    {
        int workers = Environment.ProcessorCount;
        long length = RandomAccess.GetLength(file);
        if (workers < 2 || !TryFirstLines(file, length, layout, out long dataStart, out byte[] firstRow))
        {
            return null;
        }

        ReadOnlySpan<byte> first = firstRow;
        if (first.IsEmpty || first.IndexOfAny((byte)'"', (byte)'\r') >= 0 || first.Count((byte)',') + 1 != layout.HeaderFields)
        {
            return null;
        }

        format = TimeFormat.For(format, FieldOf(firstRow, layout.TimeField));
        var chunks = new List<CsvChunk>();
        long start = dataStart;
        while (start < length)
        {
            long end = start + chunkBytes >= length ? length : LineStartAtOrAfter(file, length, start + chunkBytes);
            if (end - start > chunkBytes + CsvLayout.MaximumLineBytes)
            {
                throw layout.LineTooLong(start + chunkBytes);
            }

            chunks.Add(new CsvChunk(chunks.Count, start, end));
            start = end;
        }

        return new ParallelCsvImport(file, layout, format, chunks.ToArray(), workers);
    }

    /// <summary>
    /// Adds every chunk to <paramref name="import"/> in file order. Returns null when the file is done, or
    /// where the one-thread reader must go on: the offset of the first chunk that needs CsvHelper's rules and the
    /// lines before it (the header's included).
    /// </summary>
    /// <exception cref="DataException">The first bad row in file order; nothing of the import stays.</exception>
    public (long Offset, long Lines)? Run(TableImport import, Action<long>? progress)
    {
        _import = import;
        var workers = new Task[_workers];
        for (int w = 0; w < workers.Length; w++)
        {
            workers[w] = Task.Factory.StartNew(Work, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        }

        long lines = 1;
        try
        {
            foreach (CsvChunk chunk in _chunks)
            {
                chunk.Done.Wait();
                if (chunk.Failure is { } failure)
                {
                    if (failure is IOException or UnauthorizedAccessException)
                    {
                        throw new IOException($"'{_layout.Request.Csv}': reading the bytes from {chunk.Start:N0} failed: {failure.Message}", failure);
                    }

                    ExceptionDispatchInfo.Throw(failure);
                }

                if (chunk.NeedsCsvRules)
                {
                    return (chunk.Start, lines);
                }

                Add(import, chunk, lines);
                lines += chunk.Lines;
                chunk.Release(_batches.Add);
                _window.Release();
                progress?.Invoke(chunk.End);
            }

            return null;
        }
        finally
        {
            Volatile.Write(ref _stop, -1);
            _window.Release(_workers);
            Task.WaitAll(workers);
            foreach (CsvChunk chunk in _chunks)
            {
                if (!chunk.IsReleased && chunk.Done.IsSet)
                {
                    chunk.Release(_batches.Add);
                }
            }
        }
    }

    /// <summary>
    /// The chunk's rows, after its first row's time is checked against the row before the chunk (the workers checked
    /// every other); then its refusal, if it has one.
    /// </summary>
    private void Add(TableImport import, CsvChunk chunk, long linesBefore)
    {
        // A refused first row was checked against nothing before it; the one-thread reader checks the order first.
        if (chunk.FirstTicks is { } first && import.TimeProblem(first) is { } wrong)
        {
            (int line, string time) = chunk.Locate(0, _layout);
            throw _layout.Row(linesBefore + line, $"time '{time}' {wrong}");
        }

        foreach (CsvBatch batch in chunk.Batches)
        {
            if (batch.Count > 0)
            {
                import.StageChecked(batch.Sinks, batch.Times, batch.Count);
            }
        }

        if (chunk.LastTicks != long.MinValue)
        {
            import.Follow(chunk.LastTicks);
        }

        if (chunk.Error is { } error)
        {
            throw _layout.Row(linesBefore + error.Line, error.Problem);
        }
    }

    private void Work()
    {
        while (true)
        {
            _window.Wait();
            int index = Interlocked.Increment(ref _next) - 1;
            if (index >= _chunks.Length || index > Volatile.Read(ref _stop))
            {
                return;
            }

            CsvChunk chunk = _chunks[index];
            try
            {
                chunk.Parse(_file, _layout, _format, _import!, Rent);
                if (chunk.Error is not null || chunk.NeedsCsvRules)
                {
                    StopAfter(index);
                }
            }
            catch (Exception exception)
            {
                // Whatever stopped the parse, the chunk is incomplete: the importing thread must throw it, never publish.
                chunk.Failure = exception;
                StopAfter(index);
            }
            finally
            {
                chunk.Done.Set();
            }
        }
    }

    /// <summary>No worker starts a chunk after <paramref name="index"/>: the import stops there.</summary>
    private void StopAfter(int index)
    {
        int seen;
        while ((seen = Volatile.Read(ref _stop)) > index && Interlocked.CompareExchange(ref _stop, index, seen) != seen)
        {
        }
    }

    private CsvBatch Rent() => _batches.TryTake(out CsvBatch? batch) ? batch : new CsvBatch(_layout, Batch);

    /// <summary>Where the data starts (just past the header line) and the first data line; false when the file has no data line.</summary>
    private static bool TryFirstLines(SafeFileHandle file, long length, CsvLayout layout, out long dataStart, out byte[] firstRow)
    {
        dataStart = 0;
        firstRow = [];
        long headerEnd = LineStartAtOrAfter(file, length, 1);
        if (headerEnd >= length || Line(file, 0, headerEnd, layout).AsSpan().IndexOfAny((byte)'"', (byte)'\r') >= 0)
        {
            return false;
        }

        dataStart = headerEnd;
        firstRow = Line(file, headerEnd, LineStartAtOrAfter(file, length, headerEnd + 1), layout);
        return true;
    }

    /// <summary>The bytes of the line in [<paramref name="start"/>, <paramref name="end"/>) without its '\n' and a '\r' before it.</summary>
    private static byte[] Line(SafeFileHandle file, long start, long end, CsvLayout layout)
    {
        if (end - start > CsvLayout.MaximumLineBytes)
        {
            throw layout.LineTooLong(start);
        }

        var bytes = new byte[end - start];
        int read = RandomAccess.Read(file, bytes, start);
        return CsvLineReader.WithoutLineEnd(bytes.AsSpan(0, read)).ToArray();
    }

    /// <summary>
    /// The offset just past the first '\n' at or after <paramref name="from"/> - 1: where the line holding byte
    /// <paramref name="from"/> - 1 ends; the file's length if none.
    /// </summary>
    private static long LineStartAtOrAfter(SafeFileHandle file, long length, long from)
    {
        var probe = new byte[Probe];
        for (long at = from - 1; at < length; at += Probe)
        {
            int read = RandomAccess.Read(file, probe, at);
            int newline = probe.AsSpan(0, read).IndexOf((byte)'\n');
            if (newline >= 0)
            {
                return at + newline + 1;
            }
        }

        return length;
    }

    private static ReadOnlySpan<byte> FieldOf(ReadOnlySpan<byte> line, int field)
    {
        for (int f = 0; f < field; f++)
        {
            line = line[(line.IndexOf((byte)',') + 1)..];
        }

        int comma = line.IndexOf((byte)',');
        return comma < 0 ? line : line[..comma];
    }
}
