using System;
using System.IO;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A list of integers stored at any integer width the format knows (SByte to UInt64, and the odd widths Int24 to
/// UInt56 that ListMmf 1.x writes to keep prices and volumes small), read and appended as
/// <see cref="long"/>. With <see cref="OpenSmallest"/> a new list starts at one byte per value and widens when a value
/// does not fit.
/// </summary>
/// <remarks>
/// Widening and <see cref="TruncateBeginning"/> write a new file and rename it over the old one, which is never
/// changed, so a failure (a full disk) leaves it whole; readers of this type reopen the path when they see the old
/// file marked replaced. The steps: the new file is written under a temporary name and made durable, the old file's
/// header is marked replaced (version -1), the new file is renamed over it and the directory is flushed. Not
/// thread-safe: give each thread its own reader.
/// </remarks>
public sealed class IntegerListMmf : IListMmf
{
    private const int CopyChunk = 1 << 16;

    private readonly WriterLock? _lock;
    private readonly ListMmfOptions _options;

    /// <summary>The file, at its width, across widenings (and a reader following a replacement); a file left is closed at once.</summary>
    private readonly ReplaceableFile<IntegerStore> _file;
    private long _min;
    private long _max;
    private bool _disposed;

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

            IntegerStore store = IntegerStore.Open(Path, access, _options, createAs);
            _file = new ReplaceableFile<IntegerStore>(Path, store, static file => file.Storage, keepsPrevious: false);
            (_min, _max) = IntegerWidths.RangeOf(_file.Current.DataType);
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
    internal bool Widens { get; }

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

        _file.Current.Add(value);
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

        _file.Current.AddRange(values);
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
        _file.Current.Truncate(newCount);
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
        _file.Current.TruncateBeginning(count);
    }

    /// <inheritdoc cref="ListMmf{T}.Flush"/>
    public void Flush()
    {
        ThrowIfNotWritable();
        _file.Current.Flush();
    }

    /// <summary>Closes the file; a writer gives up its lock.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _file.Dispose();
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
            if (!IsWritable && _file.Current.IsReplaced
                && _file.TryFollow(_ => IntegerStore.Open(Path, FileAccess.Read, _options, _file.Current.DataType)))
            {
                (_min, _max) = IntegerWidths.RangeOf(_file.Current.DataType);
            }

            return _file.Current;
        }
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
                $"'{Path}' stores {_file.Current.DataType} values ({_min:N0} to {_max:N0}); {refused:N0} does not fit. " +
                    $"Nothing was written; open the list with OpenSmallest to widen it.");
        }

        var buffer = new long[CopyChunk];
        long count = _file.Current.Count;
        for (long start = 0; start < count; start += CopyChunk)
        {
            Span<long> chunk = buffer.AsSpan(0, (int)Math.Min(CopyChunk, count - start));
            _file.Current.CopyTo(start, chunk);
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
        long count = _file.Current.Count;
        try
        {
            _file.Replace(
                "widen",
                $"the {count:N0} values as {dataType}",
                temporary => WriteValues(temporary, dataType, count, buffer),
                target => IntegerStore.Open(target, FileAccess.ReadWrite, _options, dataType));
        }
        finally
        {
            // An empty range when the list cannot go on sends every append to the slow path, which throws.
            (_min, _max) = _file.Failure is null ? IntegerWidths.RangeOf(_file.Current.DataType) : (long.MaxValue, long.MinValue);
        }
    }

    /// <summary>
    /// A widening's new file at <paramref name="temporary"/>: the first <paramref name="count"/> values as
    /// <paramref name="dataType"/>, made durable.
    /// </summary>
    private void WriteValues(string temporary, DataType dataType, long count, long[] buffer)
    {
        // The widened file keeps the format of the file it replaces, so that its readers (ListMmf 1.x's, for version 1) read it.
        ListMmfFormatVersion format = _file.Current.Storage.SameFormat.Version;
        var options = _options with { InitialCapacity = count, CreateIfMissing = true, FormatVersion = format };
        using IntegerStore target = IntegerStore.Open(temporary, FileAccess.ReadWrite, options, dataType, WriterOpening.Copy);
        for (long start = 0; start < count; start += CopyChunk)
        {
            Span<long> chunk = buffer.AsSpan(0, (int)Math.Min(CopyChunk, count - start));
            _file.Current.CopyTo(start, chunk);
            target.AddRange(chunk);
        }

        target.Flush();
    }

    private void ThrowIfUnusable()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_file.Failure is { } failure)
        {
            throw new ListMmfException(Path, failure.Problem, failure);
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
