using System;
using System.IO;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A list of integers stored at any integer width the format knows (SByte to UInt64, and the odd widths Int24 to
/// UInt56 that the existing ListMmf library writes to keep prices and volumes small), read and appended as
/// <see cref="long"/>. With <see cref="OpenSmallest"/> a new list starts at one byte per value and widens when a value
/// does not fit.
/// </summary>
/// <remarks>
/// Widening and <see cref="TruncateBeginning"/> write a new file and rename it over the old one, which is never
/// changed, so a failure (a full disk) leaves it whole; readers of this type reopen the path when they see the old
/// file marked replaced. The README's "How it works" section has the steps. Not thread-safe: give each thread its
/// own reader.
/// </remarks>
public sealed class IntegerListMmf : IListMmf
{
    private const int CopyChunk = 1 << 16;

    private readonly WriterLock? _lock;
    private readonly ListMmfOptions _options;
    private IntegerStore _store;
    private long _min;
    private long _max;
    private bool _disposed;

    /// <summary>Set when a widening renamed the new file into place and the list could not open it: every later call throws it.</summary>
    private ListMmfException? _failure;

    /// <summary>When a reader whose file is marked replaced looks at the path.</summary>
    private ReplacementCheck _replacementCheck;

    private IntegerListMmf(string path, FileAccess access, bool widens, ListMmfOptions? options, DataType createAs)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        if (access is not (FileAccess.Read or FileAccess.ReadWrite))
        {
            throw new ArgumentOutOfRangeException(nameof(access), access, "An IntegerListMmf is opened with " +
                "FileAccess.Read or FileAccess.ReadWrite.");
        }

        Path = System.IO.Path.GetFullPath(path);
        IsWritable = access == FileAccess.ReadWrite;
        Widens = widens;
        _options = options ?? ListMmfOptions.Default;
        try
        {
            if (IsWritable)
            {
                ListMmfStorage.ThrowIfDirectoryMissing(Path);
                _lock = WriterLock.Acquire(Path);

                // Before the width is read: a replacement killed half done may have left no file at the path.
                ListMmfStorage.FinishInterrupted(Path);

            }

            _store = IntegerStore.Open(Path, access, _options, createAs);
            (_min, _max) = IntegerWidths.RangeOf(_store.DataType);
        }
        catch
        {
            _lock?.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Opens the integer file at <paramref name="path"/>, of any integer code, at its stored width: a writer creates
    /// a missing file as Int64, and refuses a value the width cannot hold.
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file holds another type than integers.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the file open.</exception>
    /// <exception cref="FileNotFoundException">A reader of a missing file.</exception>
    public static IntegerListMmf Open(string path, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null) =>
        new(path, access, widens: false, options, DataType.Int64);

    /// <summary>
    /// Opens the integer file at <paramref name="path"/> for writing in smallest-width mode: a missing file is
    /// created at one byte per value, and the list widens to the narrowest code that holds every value when one does
    /// not fit (unsigned codes while no value is negative).
    /// </summary>
    /// <exception cref="ListMmfDataTypeException">The file holds another type than integers.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the file open.</exception>
    public static IntegerListMmf OpenSmallest(string path, ListMmfOptions? options = null) =>
        new(path, FileAccess.ReadWrite, widens: true, options, DataType.Byte);

    /// <summary>The full path of the file.</summary>
    public string Path { get; }

    /// <summary>Whether this instance is the file's writer.</summary>
    public bool IsWritable { get; }

    /// <summary>Whether appends widen the file when a value does not fit (<see cref="OpenSmallest"/>).</summary>
    public bool Widens { get; }

    /// <summary>The data-type code the values are stored with now.</summary>
    public DataType DataType => Current.DataType;

    /// <summary>The number of values published.</summary>
    public long Count => Current.Count;

    /// <summary>The value at <paramref name="index"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not below <see cref="Count"/>.</exception>
    /// <exception cref="ListMmfFormatException">A UInt64 value above <see cref="long.MaxValue"/>.</exception>
    public long this[long index] => Current[index];

    /// <summary>Appends <paramref name="value"/>, widening the file first if this list widens and the value does not fit.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The stored width cannot hold the value and the list does not
    /// widen; nothing was written.</exception>
    /// <exception cref="ListMmfException">Widening failed (a full disk); the file is unchanged and nothing was written.</exception>
    public void Add(long value)
    {
        if (value < _min || value > _max)
        {
            MakeRoom(value, value);
        }

        _store.Add(value);
    }

    /// <summary>Appends all of <paramref name="values"/> with one count update, widening first if needed; see <see cref="Add"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The stored width cannot hold a value and the list does not
    /// widen; nothing was written.</exception>
    public void AddRange(ReadOnlySpan<long> values)
    {
        if (values.IsEmpty)
        {
            return;
        }

        long min = long.MaxValue, max = long.MinValue;
        foreach (long value in values)
        {
            min = Math.Min(min, value);
            max = Math.Max(max, value);
        }

        if (min < _min || max > _max)
        {
            MakeRoom(min, max);
        }

        _store.AddRange(values);
    }

    /// <summary>
    /// The values of <c>[start, start + destination.Length)</c>, converted from the stored width into
    /// <paramref name="destination"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the list.</exception>
    public void CopyTo(long start, Span<long> destination) => Current.CopyTo(start, destination);

    /// <inheritdoc cref="ListMmf{T}.Truncate"/>
    public void Truncate(long newCount)
    {
        ThrowIfNotWritable();
        _store.Truncate(newCount);
    }

    /// <summary>
    /// Drops the first <paramref name="count"/> values, for rolling windows: a maintenance operation that writes the
    /// rest into a new file and renames it over this one (see the remarks of <see cref="IntegerListMmf"/>). Readers
    /// of this type reopen on their next access and see the shorter list; an index a reader kept from before now
    /// points <paramref name="count"/> values further on, and a read past the new count throws
    /// <see cref="ArgumentOutOfRangeException"/>: read <see cref="Count"/> again.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative or more than <see cref="Count"/>.</exception>
    /// <exception cref="ListMmfException">The new file could not be written (a full disk), and the file is
    /// unchanged; or it was renamed into place but could not be opened, and the list refuses every later call (the message says which).</exception>
    public void TruncateBeginning(long count)
    {
        ThrowIfNotWritable();
        _store.TruncateBeginning(count);
    }

    /// <inheritdoc cref="ListMmf{T}.Flush"/>
    public void Flush()
    {
        ThrowIfNotWritable();
        _store.Flush();
    }

    /// <summary>Closes the file; a writer gives up its lock.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _store.Dispose();
        _lock?.Dispose();
    }

    /// <inheritdoc/>
    public override string ToString() => _disposed
        ? $"IntegerListMmf('{Path}', disposed)"
        : $"IntegerListMmf('{Path}', {DataType}, Count = {Count:N0})";

    /// <summary>The current file: a reader whose file was replaced reopens the path first.</summary>
    private IntegerStore Current
    {
        get
        {
            ThrowIfUnusable();
            if (!IsWritable && _store.IsReplaced && _replacementCheck.IsDue)
            {
                FollowReplacement();
            }

            return _store;
        }
    }

    /// <summary>
    /// Opens the file at the path, at its width, unless that is this same file, marked (not renamed yet, or its
    /// writer died before the rename: the file is still the list's): then the reader reads on and looks again later.
    /// </summary>
    private void FollowReplacement()
    {
        IntegerStore next;
        try
        {
            next = IntegerStore.Open(Path, FileAccess.Read, _options, _store.DataType);
        }
        catch (FileNotFoundException)
        {
            // A writer killed between its two renames (Windows without POSIX renames): this file is still whole.
            _replacementCheck.Postpone();
            return;
        }

        if (next.IsReplaced && next.Storage.IsSameFileAs(_store.Storage))
        {
            next.Dispose();
            _replacementCheck.Postpone();
            return;
        }

        _store.Dispose();
        _store = next;
        (_min, _max) = IntegerWidths.RangeOf(_store.DataType);
        _replacementCheck.Reset();
    }

    /// <summary>Widens so that <c>[min, max]</c> fits beside the stored values, or refuses the values.</summary>
    private void MakeRoom(long min, long max)
    {
        ThrowIfNotWritable();
        if (!Widens)
        {
            long refused = min < _min ? min : max;
            // Named for the public Add and AddRange, whose values these are.
            ThrowHelper.ArgumentOutOfRange(
                "value",
                refused,
                $"'{Path}' stores {_store.DataType} values ({_min:N0} to {_max:N0}); {refused:N0} does not fit. " +
                    $"Nothing was written; open the list with OpenSmallest to widen it.");
        }

        var buffer = new long[CopyChunk];
        long count = _store.Count;
        for (long start = 0; start < count; start += CopyChunk)
        {
            Span<long> chunk = buffer.AsSpan(0, (int)Math.Min(CopyChunk, count - start));
            _store.CopyTo(start, chunk);
            foreach (long value in chunk)
            {
                min = Math.Min(min, value);
                max = Math.Max(max, value);
            }
        }

        Widen(IntegerWidths.Narrowest(min, max), buffer);
    }

    /// <summary>
    /// Writes the values into a new file of <paramref name="dataType"/> and puts it in the old one's place (see
    /// <see cref="FileReplacement"/>). <paramref name="buffer"/> carries the values across.
    /// </summary>
    private void Widen(DataType dataType, long[] buffer)
    {
        long count = _store.Count;
        FileReplacement.Replace(
            Path,
            _store.Storage,
            "widen",
            $"the {count:N0} values as {dataType}",
            temporary =>
            {
                var options = _options with { InitialCapacity = count, CreateIfMissing = true };
                using IntegerStore target = IntegerStore.Open(temporary, FileAccess.ReadWrite, options, dataType, WriterOpening.Copy);
                for (long start = 0; start < count; start += CopyChunk)
                {
                    Span<long> chunk = buffer.AsSpan(0, (int)Math.Min(CopyChunk, count - start));
                    _store.CopyTo(start, chunk);
                    target.AddRange(chunk);
                }

                target.Flush();
            },
            target => IntegerStore.Open(target, FileAccess.ReadWrite, _options, dataType),
            next =>
            {
                IntegerStore replaced = _store;
                _store = next;
                (_min, _max) = IntegerWidths.RangeOf(dataType);
                replaced.Dispose();
            },
            Fault);
    }

    /// <summary>
    /// The widened file is at the path but could not be opened: every later call throws <paramref name="failure"/>'s
    /// problem. An empty range sends every append to the slow path, which checks.
    /// </summary>
    private void Fault(ListMmfException failure)
    {
        _failure = failure;
        _min = long.MaxValue;
        _max = long.MinValue;
    }

    private void ThrowIfUnusable()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_failure is not null)
        {
            throw new ListMmfException(Path, _failure.Problem, _failure);
        }
    }

    private void ThrowIfNotWritable()
    {
        ThrowIfUnusable();
        if (!IsWritable)
        {
            ThrowHelper.ReadOnly(Path);
        }
    }
}
