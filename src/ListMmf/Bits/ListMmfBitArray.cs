using System;
using System.IO;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A persistent array of bits in a bit file (data-type code 1), in ListMmf 1.x's layout: the
/// 16-byte header (its count is the number of Int32 words), an Int64 bit count at offset 16, then the Int32 words
/// from offset 24, bit <c>i</c> at bit <c>i % 32</c> of word <c>i / 32</c> (little-endian, lowest bit first).
/// </summary>
/// <remarks>
/// One writer and any number of readers, as for <see cref="ListMmf{T}"/>: the writer stores the bits, then the word
/// count, then publishes the bit count (release); <see cref="Count"/> reads it (acquire). The bulk operations
/// (<see cref="And"/>, <see cref="Or"/>, <see cref="Xor"/>, <see cref="Not"/>) work a vector of words at a time;
/// <see cref="PopCount"/> and <see cref="IndexOfNext"/> 64 bits at a time; they and <see cref="Flush"/> work on
/// arrays of up to 2^31 words (68.7 billion bits) and throw <see cref="OverflowException"/> beyond. An instance is
/// not thread-safe.
/// </remarks>
public sealed unsafe class ListMmfBitArray : IListMmf
{
    private const int BitCountOffset = ListMmfHeader.Version1Size;
    private const int WordsOffset = ListMmfHeader.Version1Size + sizeof(long);

    private readonly ListMmfStorage _storage;
    private long* _wordCount;
    private long* _bitCount;
    private uint* _words;
    private long _capacityBits;
    private bool _disposed;

    /// <summary>Opens the bit file at <paramref name="path"/>, creating it when opened for writing and missing.</summary>
    /// <exception cref="ListMmfFormatException">The file is not a valid bit file: its counts exceed its bytes or
    /// each other. It was not changed.</exception>
    /// <exception cref="ListMmfDataTypeException">The file holds another type than bits.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the file open.</exception>
    public ListMmfBitArray(string path, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        if (access is not (FileAccess.Read or FileAccess.ReadWrite))
        {
            throw new ArgumentOutOfRangeException(nameof(access), access, "A ListMmfBitArray is opened with " +
                "FileAccess.Read or FileAccess.ReadWrite.");
        }

        Path = System.IO.Path.GetFullPath(path);
        _storage = ListMmfStorage.Open<BitWord>(
            Path,
            access == FileAccess.ReadWrite,
            (options ?? ListMmfOptions.Default) with { FormatVersion = ListMmfFormatVersion.Version1 },
            DataType.Bit,
            requireDataType: true);
        try
        {
            UpdatePointers();

            // The bit count first: a writer stores the word count before it publishes bits in a new word, so a
            // word count read after the bits covers them; the mapping is refreshed for words the writer grew into.
            long bits = Volatile.Read(ref *_bitCount);
            long words = Volatile.Read(ref *_wordCount);
            if (words >= 0 && WordsOffset + (words * sizeof(uint)) > _storage.Length)
            {
                _storage.Refresh();
                UpdatePointers();
            }

            if (words < 0 || WordsOffset + (words * sizeof(uint)) > _storage.Length)
            {
                throw new ListMmfFormatException(Path, $"the header counts {words:N0} words of bits, but the file is " +
                    $"only {_storage.Length:N0} bytes long (the words start at byte {WordsOffset}).");
            }

            if (bits < 0 || bits > words * 32)
            {
                throw new ListMmfFormatException(Path, $"the bit count ({bits:N0}) does not fit the header's {words:N0} words of 32 bits.");
            }
        }
        catch
        {
            _storage.Dispose();
            throw;
        }
    }

    /// <summary>The full path of the file.</summary>
    public string Path { get; }

    /// <summary>Whether this instance is the file's writer.</summary>
    public bool IsWritable => _storage.IsWritable;

    /// <summary><see cref="DataType.Bit"/>, the code in the file's header.</summary>
    public DataType DataType => DataType.Bit;

    /// <summary>The number of bits published.</summary>
    /// <exception cref="ListMmfFormatException">The bit count was damaged after opening.</exception>
    public long Count
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            long bits = Volatile.Read(ref *_bitCount);
            return (ulong)bits <= (ulong)_capacityBits ? bits : FollowWriter(bits);
        }
    }

    /// <summary>The bit at <paramref name="index"/>; setting it is for the writer, below <see cref="Count"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not below <see cref="Count"/>.</exception>
    public bool this[long index]
    {
        get
        {
            long count = Count;
            if ((ulong)index >= (ulong)count)
            {
                ThrowHelper.IndexOutOfRange(index, count);
            }

            bool bit = ((_words[index >> 5] >> (int)(index & 31)) & 1) != 0;
            GC.KeepAlive(this);
            return bit;
        }

        set
        {
            ThrowIfNotWritable();
            long count = Count;
            if ((ulong)index >= (ulong)count)
            {
                ThrowHelper.IndexOutOfRange(index, count);
            }

            Set(index, value);
            GC.KeepAlive(this);
        }
    }

    /// <summary>Appends <paramref name="value"/> and publishes the new bit count.</summary>
    public void Add(bool value)
    {
        ThrowIfNotWritable();
        long count = Count;
        Reserve(count + 1);
        Set(count, value);
        Publish(count + 1);
    }

    /// <summary>Appends all of <paramref name="values"/> and publishes them with one update of the bit count.</summary>
    public void AddRange(ReadOnlySpan<bool> values)
    {
        ThrowIfNotWritable();
        long count = Count;
        Reserve(count + values.Length);
        for (int i = 0; i < values.Length; i++)
        {
            Set(count + i, values[i]);
        }

        Publish(count + values.Length);
    }

    /// <summary>The number of bits set among the first <see cref="Count"/>.</summary>
    public long PopCount()
    {
        long count = Count;
        ReadOnlySpan<uint> words = Words(count);
        long set = 0;
        int i = 0;

        // 64 bits at a time over the words below the last, which alone may hold bits past the count.
        for (; i + 2 < words.Length; i += 2)
        {
            set += BitOperations.PopCount(words[i] | ((ulong)words[i + 1] << 32));
        }

        for (; i < words.Length; i++)
        {
            set += BitOperations.PopCount(words[i] & LastWordMask(count, i));
        }

        GC.KeepAlive(this);
        return set;
    }

    /// <summary>
    /// The index of the first bit at or after <paramref name="start"/> that equals <paramref name="value"/>, or -1 if
    /// there is none below <see cref="Count"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="start"/> is negative.</exception>
    public long IndexOfNext(bool value, long start)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(start);
        long count = Count;
        ReadOnlySpan<uint> words = Words(count);
        uint flip = value ? 0u : uint.MaxValue;
        for (long w = start >> 5; w < words.Length; w++)
        {
            uint candidates = (words[(int)w] ^ flip) & LastWordMask(count, w);
            if (w == start >> 5)
            {
                candidates &= uint.MaxValue << (int)(start & 31);
            }

            if (candidates != 0)
            {
                GC.KeepAlive(this);
                return (w << 5) + BitOperations.TrailingZeroCount(candidates);
            }
        }

        GC.KeepAlive(this);
        return -1;
    }

    /// <summary>Keeps the bits set in both this array and <paramref name="other"/>, which must have the same <see cref="Count"/>.</summary>
    /// <exception cref="ArgumentException">The counts differ.</exception>
    public ListMmfBitArray And(ListMmfBitArray other) => Combine<AndBits>(other);

    /// <summary>Sets the bits set in this array or <paramref name="other"/>, which must have the same <see cref="Count"/>.</summary>
    /// <exception cref="ArgumentException">The counts differ.</exception>
    public ListMmfBitArray Or(ListMmfBitArray other) => Combine<OrBits>(other);

    /// <summary>Sets the bits set in exactly one of this array and <paramref name="other"/>, which must have the same <see cref="Count"/>.</summary>
    /// <exception cref="ArgumentException">The counts differ.</exception>
    public ListMmfBitArray Xor(ListMmfBitArray other) => Combine<XorBits>(other);

    /// <summary>Inverts every bit.</summary>
    public ListMmfBitArray Not()
    {
        ThrowIfNotWritable();
        Span<uint> words = new(_words, WordsFor(Count));
        int i = 0;
        for (; i + Vector<uint>.Count <= words.Length; i += Vector<uint>.Count)
        {
            (~new Vector<uint>(words[i..])).CopyTo(words[i..]);
        }

        for (; i < words.Length; i++)
        {
            words[i] = ~words[i];
        }

        GC.KeepAlive(this);
        return this;
    }

    /// <inheritdoc cref="ListMmf{T}.Flush"/>
    public void Flush()
    {
        ThrowIfNotWritable();
        // The storage counts 4-byte units from the end of the 16-byte header: the Int64 bit count (two), then the words.
        _storage.Flush(0, 2 + (long)WordsFor(Count));
    }

    /// <summary>Unmaps and closes the file; a writer gives up its lock.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _storage.Dispose();
    }

    /// <inheritdoc/>
    public override string ToString() => _disposed ? $"ListMmfBitArray('{Path}', disposed)" : $"ListMmfBitArray('{Path}', Count = {Count:N0})";

    private ListMmfBitArray Combine<TOperation>(ListMmfBitArray other)
        where TOperation : IBitOperation
    {
        ArgumentNullException.ThrowIfNull(other);
        ThrowIfNotWritable();
        long count = Count;
        long otherCount = other.Count;
        if (count != otherCount)
        {
            throw new ArgumentException($"'{Path}' holds {count:N0} bits and '{other.Path}' {otherCount:N0}; a bulk " +
                $"operation needs the same count.", nameof(other));
        }

        Span<uint> words = new(_words, WordsFor(count));
        ReadOnlySpan<uint> others = other.Words(count);
        int i = 0;
        for (; i + Vector<uint>.Count <= words.Length; i += Vector<uint>.Count)
        {
            TOperation.Apply(new Vector<uint>(words[i..]), new Vector<uint>(others[i..])).CopyTo(words[i..]);
        }

        for (; i < words.Length; i++)
        {
            words[i] = TOperation.Apply(words[i], others[i]);
        }

        GC.KeepAlive(other);
        GC.KeepAlive(this);
        return this;
    }

    private ReadOnlySpan<uint> Words(long count) => new(_words, WordsFor(count));

    private static int WordsFor(long bits) => checked((int)((bits + 31) >> 5));

    /// <summary>The bits of word <paramref name="word"/> that lie below <paramref name="count"/>.</summary>
    private static uint LastWordMask(long count, long word)
    {
        long bitsInWord = count - (word << 5);
        return bitsInWord >= 32 ? uint.MaxValue : (1u << (int)bitsInWord) - 1;
    }

    private void Set(long index, bool value)
    {
        uint mask = 1u << (int)(index & 31);
        ref uint word = ref _words[index >> 5];
        word = value ? word | mask : word & ~mask;
    }

    /// <summary>
    /// Grows the file, if needed, to hold <paramref name="bits"/>, and counts the words they use in the header; a
    /// new word starts cleared.
    /// </summary>
    private void Reserve(long bits)
    {
        long words = (bits + 31) >> 5;
        if (bits > _capacityBits)
        {
            _storage.Grow(_storage.LengthFor(words + 2, nameof(bits)));
            UpdatePointers();
        }

        long stored = *_wordCount;
        for (long w = stored; w < words; w++)
        {
            _words[w] = 0;
        }

        if (words > stored)
        {
            Volatile.Write(ref *_wordCount, words);
        }
    }

    private void Publish(long bits) => Volatile.Write(ref *_bitCount, bits);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private long FollowWriter(long bits)
    {
        if (bits >= 0)
        {
            _storage.Refresh();
            UpdatePointers();
        }

        if ((ulong)bits > (ulong)_capacityBits)
        {
            throw new ListMmfFormatException(Path, $"the bit count ({bits:N0}) has left the file (room for " +
                $"{_capacityBits:N0} bits) since it was opened; another program damaged it.");
        }

        return bits;
    }

    private void UpdatePointers()
    {
        byte* start = _storage.Pointer;
        _wordCount = (long*)(start + ListMmfHeader.CountOffset);
        _bitCount = (long*)(start + BitCountOffset);
        _words = (uint*)(start + WordsOffset);
        _capacityBits = (_storage.Length - WordsOffset) / sizeof(uint) * 32;
    }

    private void ThrowIfNotWritable()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (!IsWritable)
        {
            ThrowHelper.ReadOnly(Path);
        }
    }

    /// <summary>A bulk operation on words, compiled into <see cref="Combine"/> for each operation.</summary>
    private interface IBitOperation
    {
        static abstract Vector<uint> Apply(Vector<uint> left, Vector<uint> right);

        static abstract uint Apply(uint left, uint right);
    }

    private readonly struct AndBits : IBitOperation
    {
        public static Vector<uint> Apply(Vector<uint> left, Vector<uint> right) => left & right;

        public static uint Apply(uint left, uint right) => left & right;
    }

    private readonly struct OrBits : IBitOperation
    {
        public static Vector<uint> Apply(Vector<uint> left, Vector<uint> right) => left | right;

        public static uint Apply(uint left, uint right) => left | right;
    }

    private readonly struct XorBits : IBitOperation
    {
        public static Vector<uint> Apply(Vector<uint> left, Vector<uint> right) => left ^ right;

        public static uint Apply(uint left, uint right) => left ^ right;
    }
}
