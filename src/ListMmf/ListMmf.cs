using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;
using ListMmf.Search;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A persistent list of unmanaged <typeparamref name="T"/> values kept in a memory-mapped file: a 16-byte header
/// (version, data-type code, count) followed by the items. Indices and counts are 64-bit.
/// </summary>
/// <remarks>
/// <para>
/// A file has one writer (opened with <see cref="FileAccess.ReadWrite"/>) and any number of readers (opened with
/// <see cref="FileAccess.Read"/>), in this process or others. The writer stores the items first and then
/// publishes the new count with release semantics; <see cref="Count"/> reads it with acquire semantics, so a
/// reader never sees an item that was not completely written.
/// </para>
/// <para>
/// An instance is not thread-safe: give each thread its own reader (they are cheap). A span from
/// <see cref="AsSpan"/> stays valid until the list is disposed, also across growth: earlier mappings are kept
/// until then.
/// </para>
/// <para>Dispose does not flush to the device: the operating system keeps what reached the mapping even if the
/// process dies. Call <see cref="Flush"/> for durability against power loss.</para>
/// </remarks>
/// <typeparam name="T">The item type: any unmanaged value type.</typeparam>
public sealed unsafe class ListMmf<T> : IEnumerable<T>, IDisposable
    where T : unmanaged
{
    private const long MinimumGrowthBytes = 64 * 1024;
    private const long MaximumGrowthBytes = 1L << 30;

    /// <summary>File lengths are multiples of this, which every page size and the Windows view alignment divide.</summary>
    private const long LengthGranularity = 64 * 1024;

    private readonly FileStream _file;
    private readonly FileMapping _mapping;
    private readonly WriterLock? _writerLock;

    /// <summary>The published count, in the header of the mapping; points at a zero once disposed.</summary>
    private long* _count;

    private T* _items;

    /// <summary>How many items the mapping covers.</summary>
    private long _capacity;

    /// <summary>
    /// How many items <see cref="Add"/> may store without growing: the capacity for the writer, 0 for a reader or
    /// once disposed, so that the one unsigned comparison on the append path also sends those cases, and a
    /// damaged negative count, to the slow path.
    /// </summary>
    private long _appendLimit;

    private bool _disposed;

    /// <summary><see cref="ListMmfOptions.PrefaultCapacity"/>.</summary>
    private readonly bool _prefault;

    /// <summary>
    /// Opens the ListMmf file at <paramref name="path"/>, creating it when opened for writing and missing.
    /// </summary>
    /// <param name="path">The file. A writer also holds <c>path + ".writer-lock"</c> open while it lives.</param>
    /// <param name="access"><see cref="FileAccess.ReadWrite"/> for the one writer, <see cref="FileAccess.Read"/> for a reader.</param>
    /// <param name="options">Backend and initial capacity; <see cref="ListMmfOptions.Default"/> when null.</param>
    /// <exception cref="ListMmfFormatException">The file is not a valid ListMmf file. It was not changed.</exception>
    /// <exception cref="ListMmfDataTypeException">The file holds another item type. It was not changed.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the file open for writing.</exception>
    /// <exception cref="FileNotFoundException">A reader was opened on a file that does not exist.</exception>
    public ListMmf(string path, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
        : this(path, access, options, DataTypes.For<T>(), requireDataType: false)
    {
    }

    /// <summary>
    /// Opens the file; a new file is created with the data-type code <paramref name="dataType"/>, and with
    /// <paramref name="requireDataType"/> an existing file must have exactly that code.
    /// </summary>
    internal ListMmf(string path, FileAccess access, ListMmfOptions? options, DataType dataType, bool requireDataType)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        if (access is not (FileAccess.Read or FileAccess.ReadWrite))
        {
            throw new ArgumentOutOfRangeException(nameof(access), access, "A ListMmf is opened with FileAccess.Read or FileAccess.ReadWrite.");
        }

        options ??= ListMmfOptions.Default;
        ArgumentOutOfRangeException.ThrowIfNegative(options.InitialCapacity, nameof(options));
        MappingBackend backend = FileMapping.Resolve(options.Backend);
        Path = System.IO.Path.GetFullPath(path);
        IsWritable = access == FileAccess.ReadWrite;

        try
        {
            if (IsWritable)
            {
                ThrowIfDirectoryMissing(Path);
                _writerLock = WriterLock.Acquire(Path);
                if (!File.Exists(Path))
                {
                    CreateFile(Path, dataType, options.InitialCapacity);
                }
            }

            _file = new FileStream(Path, FileMode.Open, access, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0);
            DataType = ListMmfHeader.ReadAndValidate<T>(_file.SafeFileHandle, Path).DataType;
            if (requireDataType && DataType != dataType)
            {
                throw new ListMmfDataTypeException(Path, $"the file holds {DataTypes.Describe(DataType)}, not {DataTypes.Describe(dataType)}.");
            }

            _mapping = FileMapping.Create(_file, Path, IsWritable, backend);
        }
        catch
        {
            _file?.Dispose();
            _writerLock?.Dispose();
            throw;
        }

        Backend = backend;
        _prefault = options.PrefaultCapacity;
        UpdatePointers();
        if (_prefault)
        {
            _mapping.Prefault(ListMmfHeader.Size + (Count * sizeof(T)), _mapping.Length);
        }
    }

    /// <summary>The full path of the file.</summary>
    public string Path { get; }

    /// <summary>Whether this instance is the file's writer.</summary>
    public bool IsWritable { get; }

    /// <summary>The data-type code in the file's header.</summary>
    public DataType DataType { get; }

    /// <summary>The backend that maps the file.</summary>
    public MappingBackend Backend { get; }

    /// <summary>
    /// The number of items: the count published in the file's header. A reader sees the writer's appends here as
    /// they are published. 0 once disposed.
    /// </summary>
    public long Count
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            long count = Volatile.Read(ref *_count);
            return (ulong)count <= (ulong)_capacity ? count : FollowWriter(count);
        }
    }

    /// <summary>The number of items the file has room for before it must grow.</summary>
    public long Capacity => _capacity;

    /// <summary>The item at <paramref name="index"/>. Only items below <see cref="Count"/> can be read or replaced.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is negative or not below <see cref="Count"/>.</exception>
    /// <exception cref="NotSupportedException">Setting on a list opened read-only.</exception>
    public T this[long index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            if ((ulong)index >= (ulong)Count)
            {
                ThrowIndexOutOfRange(index);
            }

            return _items[index];
        }

        set
        {
            if (!IsWritable)
            {
                ThrowIfDisposed();
                ThrowHelper.ReadOnly(Path);
            }

            if ((ulong)index >= (ulong)Count)
            {
                ThrowIndexOutOfRange(index);
            }

            _items[index] = value;
        }
    }

    /// <summary>Appends <paramref name="item"/> and publishes the new count. Grows the file when it is full.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(T item)
    {
        long count = *_count;
        if ((ulong)count >= (ulong)_appendLimit)
        {
            PrepareAppend(count, 1);
        }

        _items[count] = item;
        Volatile.Write(ref *_count, count + 1);
    }

    /// <summary>Appends all of <paramref name="items"/> and publishes them with one count update.</summary>
    public void AddRange(ReadOnlySpan<T> items)
    {
        long count = *_count;
        if ((ulong)count + (ulong)items.Length > (ulong)_appendLimit || _appendLimit == 0)
        {
            PrepareAppend(count, items.Length);
        }

        items.CopyTo(new Span<T>(_items + count, items.Length));
        Volatile.Write(ref *_count, count + items.Length);
    }

    /// <summary>Grows the file, if needed, so that it holds at least <paramref name="capacity"/> items.</summary>
    /// <returns>The capacity afterwards.</returns>
    public long EnsureCapacity(long capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        ThrowIfNotWritable();
        if (capacity > _capacity)
        {
            Grow(capacity);
        }

        return _capacity;
    }

    /// <summary>
    /// Lowers <see cref="Count"/> to <paramref name="newCount"/>. The items past it are dropped; the file keeps its
    /// length, because shrinking a file that another process has mapped would crash that process.
    /// </summary>
    public void Truncate(long newCount)
    {
        ThrowIfNotWritable();
        long count = Count;
        if ((ulong)newCount > (ulong)count)
        {
            ThrowHelper.ArgumentOutOfRange(nameof(newCount), newCount, $"The new count must be at least 0 and at most Count ({count:N0}).");
        }

        Volatile.Write(ref *_count, newCount);
    }

    /// <summary>A read-only span over <paramref name="length"/> items starting at <paramref name="start"/>, straight over the mapping.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The range does not lie within the first <see cref="Count"/> items.</exception>
    public ReadOnlySpan<T> AsSpan(long start, int length)
    {
        long count = Count;
        if (start < 0 || length < 0 || start > count - length)
        {
            ThrowIfDisposed();
            ThrowHelper.RangeOutOfBounds(start, length, count);
        }

        return new ReadOnlySpan<T>(_items + start, length);
    }

    /// <summary>
    /// Makes the items and the count durable: returns once they are on stable storage. The items are made durable
    /// first, then the page holding the count, so that after a power loss the count never points past durable
    /// items. Appends themselves make no system call; only this does.
    /// </summary>
    public void Flush()
    {
        ThrowIfNotWritable();
        long count = Count;
        long end = ListMmfHeader.Size + (count * sizeof(T));
        long firstPageEnd = Math.Min(Environment.SystemPageSize, end);
        if (end > firstPageEnd)
        {
            _mapping.Flush(firstPageEnd, end - firstPageEnd);
            _file.Flush(flushToDisk: true);
        }

        _mapping.Flush(0, firstPageEnd);
        _file.Flush(flushToDisk: true);
    }

    /// <summary>
    /// The items for a search: the count is read once (acquire), then the pointer, which reading the count may
    /// have moved; every item below that count is completely written.
    /// </summary>
    internal PointerSource<T> Snapshot(out long count)
    {
        count = Count;
        return new PointerSource<T>(_items);
    }

    /// <summary>The mapped first byte of the file (the header); the mapping covers the whole file.</summary>
    internal byte* FileStart => _mapping.Pointer;

    /// <summary>An allocation-free enumerator over the items present when enumeration starts.</summary>
    public Enumerator GetEnumerator()
    {
        ThrowIfDisposed();
        long count = Count;
        return new Enumerator(_items, count);
    }

    IEnumerator<T> IEnumerable<T>.GetEnumerator() => GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>Unmaps the file and closes it; a writer also gives up the file's writer lock.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _count = DisposedCount.Pointer;
        _items = null;
        _capacity = 0;
        _appendLimit = 0;
        try
        {
            _mapping.Dispose();
        }
        finally
        {
            _file.Dispose();
            _writerLock?.Dispose();
        }
    }

    /// <inheritdoc/>
    public override string ToString() => $"{DataTypes.ListName<T>()}('{Path}', Count = {Count:N0})";

    private static void ThrowIfDirectoryMissing(string path)
    {
        string? directory = System.IO.Path.GetDirectoryName(path);
        if (directory is not null && !Directory.Exists(directory))
        {
            throw new DirectoryNotFoundException($"'{path}': the directory '{directory}' does not exist.");
        }
    }

    /// <summary>
    /// Writes a complete new file under a temporary name and renames it into place, so that a crash never leaves a
    /// file at <paramref name="path"/> without a valid header.
    /// </summary>
    private static void CreateFile(string path, DataType dataType, long initialCapacity)
    {
        string temporary = $"{path}.{Guid.NewGuid():N}.tmp";
        try
        {
            using (var file = new FileStream(temporary, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.None, bufferSize: 0))
            {
                Span<byte> header = stackalloc byte[ListMmfHeader.Size];
                new ListMmfHeader(ListMmfHeader.CurrentVersion, (int)dataType, 0).Write(header);
                file.Write(header);
                long length = RoundUpLength(checked(ListMmfHeader.Size + (initialCapacity * sizeof(T))));
                FileSpace.Extend(file, ListMmfHeader.Size, length, path);
                file.Flush(flushToDisk: true);
            }

            File.Move(temporary, path, overwrite: false);
        }
        finally
        {
            File.Delete(temporary);
        }
    }

    private static long RoundUpLength(long length) => checked(length + LengthGranularity - 1) / LengthGranularity * LengthGranularity;

    private void UpdatePointers()
    {
        byte* start = _mapping.Pointer;
        _count = (long*)(start + ListMmfHeader.CountOffset);
        _items = (T*)(start + ListMmfHeader.Size);
        _capacity = (_mapping.Length - ListMmfHeader.Size) / sizeof(T);
        _appendLimit = IsWritable ? _capacity : 0;
    }

    /// <summary>The writer published a count beyond this reader's mapping: map what the file now holds.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private long FollowWriter(long count)
    {
        ThrowIfNegative(count);
        _mapping.Refresh();
        UpdatePointers();
        return Math.Min(count, _capacity);
    }

    /// <summary>The slow path of the appends: a reader or a disposed list, a damaged count, or a full file.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void PrepareAppend(long count, long added)
    {
        ThrowIfNotWritable();
        ThrowIfNegative(count);
        if (count + added > _capacity)
        {
            Grow(count + added);
        }
    }

    /// <summary>The header was checked when the file was opened; a count that has since turned negative is damage, never an index.</summary>
    private void ThrowIfNegative(long count)
    {
        if (count < 0)
        {
            throw new ListMmfFormatException(Path, $"the header's count has become negative ({count:N0}); another process damaged it.");
        }
    }

    /// <summary>
    /// Grows to at least <paramref name="requiredCapacity"/> items, by doubling the file up to steps of 1 GiB, so
    /// that appends cost amortized O(1) and huge files do not double at once.
    /// </summary>
    private void Grow(long requiredCapacity)
    {
        long length = _mapping.Length;
        long required = checked(ListMmfHeader.Size + (requiredCapacity * sizeof(T)));
        long step = Math.Clamp(length, MinimumGrowthBytes, MaximumGrowthBytes);
        long newLength = RoundUpLength(Math.Max(required, length + step));
        _mapping.Grow(newLength);
        UpdatePointers();
        if (_prefault)
        {
            _mapping.Prefault(length, newLength - length);
        }
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.Disposed(Path);
        }
    }

    private void ThrowIfNotWritable()
    {
        ThrowIfDisposed();
        if (!IsWritable)
        {
            ThrowHelper.ReadOnly(Path);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowIndexOutOfRange(long index)
    {
        ThrowIfDisposed();
        ThrowHelper.IndexOutOfRange(index, Count);
    }

    /// <summary>Enumerates the items present when enumeration started, without allocating.</summary>
    [StructLayout(LayoutKind.Auto)]
    public struct Enumerator : IEnumerator<T>
    {
        private readonly T* _items;
        private readonly long _count;
        private long _index;
        private T _current;

        internal Enumerator(T* items, long count)
        {
            _items = items;
            _count = count;
            _index = -1;
            _current = default;
        }

        /// <inheritdoc/>
        public readonly T Current => _current;

        readonly object IEnumerator.Current => Current;

        /// <summary>Advances; past the end, <see cref="Current"/> is the default value and nothing is read.</summary>
        public bool MoveNext()
        {
            if (++_index < _count)
            {
                _current = _items[_index];
                return true;
            }

            _index = _count;
            _current = default;
            return false;
        }

        /// <inheritdoc/>
        public void Reset()
        {
            _index = -1;
            _current = default;
        }

        /// <inheritdoc/>
        public readonly void Dispose()
        {
        }
    }
}
