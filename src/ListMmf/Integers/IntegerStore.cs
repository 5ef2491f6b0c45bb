using System;
using System.IO;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// One file of integers at its stored width, read and written as <see cref="long"/>: what an
/// <see cref="IntegerListMmf"/> holds, and replaces by another when it widens or truncates at the beginning.
/// </summary>
internal abstract class IntegerStore : IDisposable
{
    public abstract DataType DataType { get; }

    public abstract long Count { get; }

    public abstract bool IsReplaced { get; }

    public abstract long this[long index] { get; }

    /// <summary>Appends <paramref name="value"/>; the caller checked that the width holds it.</summary>
    public abstract void Add(long value);

    /// <summary>Appends <paramref name="values"/>, published with one count update; the caller checked that the width holds them.</summary>
    public abstract void AddRange(ReadOnlySpan<long> values);

    /// <summary>The values of <c>[start, start + destination.Length)</c>, converted into <paramref name="destination"/>.</summary>
    public abstract void CopyTo(long start, Span<long> destination);

    public abstract void Truncate(long newCount);

    /// <summary>Drops the first <paramref name="count"/> values: the list's own copy-and-rename, stored values as they are.</summary>
    public abstract void TruncateBeginning(long count);

    public abstract void Flush();

    /// <summary>The storage of the file, for a replacement of it to mark.</summary>
    public abstract ListMmfStorage Storage { get; }

    public abstract void Dispose();

    /// <summary>
    /// Opens the integer file at <paramref name="path"/> with the store of its code; a writer creates a missing file
    /// with <paramref name="createAs"/> (as <see cref="ListMmfOptions.CreateIfMissing"/> allows). Writers never take the
    /// file's lock here: the <see cref="IntegerListMmf"/> holds it across the files it replaces, and a replacement's
    /// new file (<see cref="WriterOpening.Copy"/>) needs none.
    /// </summary>
    public static IntegerStore Open(
        string path,
        FileAccess access,
        ListMmfOptions options,
        DataType createAs,
        WriterOpening opening = WriterOpening.LockHeld)
    {
        // A reader can meet a widening between reading the code and opening the file, which then holds another
        // width: it tries again. (A file replaced just after it was opened, IntegerListMmf follows.)
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return OpenOnce(path, access, options, createAs, opening);
            }
            catch (ListMmfException) when (access == FileAccess.Read && attempt < FileReplacement.OpenAttempts)
            {
            }
        }
    }

    private static IntegerStore OpenOnce(string path, FileAccess access, ListMmfOptions options, DataType createAs, WriterOpening opening)
    {
        DataType dataType = opening != WriterOpening.Copy && File.Exists(path) ? ListMmfFileInfo.Read(path).DataType : createAs;
        if (!IntegerWidths.IsInteger(dataType))
        {
            throw new ListMmfDataTypeException(path, $"the file holds {DataTypeInfo.Of(dataType).Describe()}, not integers; " +
                $"an IntegerListMmf opens the codes SByte to UInt64 and Int24 to UInt56.");
        }

        return dataType switch
        {
            DataType.SByte => new IntegerStore<sbyte, SByteCodec>(path, access, options, opening),
            DataType.Byte => new IntegerStore<byte, ByteCodec>(path, access, options, opening),
            DataType.Int16 => new IntegerStore<short, Int16Codec>(path, access, options, opening),
            DataType.UInt16 => new IntegerStore<ushort, UInt16Codec>(path, access, options, opening),
            DataType.Int32 => new IntegerStore<int, Int32Codec>(path, access, options, opening),
            DataType.UInt32 => new IntegerStore<uint, UInt32Codec>(path, access, options, opening),
            DataType.Int64 => new IntegerStore<long, Int64Codec>(path, access, options, opening),
            DataType.UInt64 => new IntegerStore<ulong, UInt64Codec>(path, access, options, opening),
            DataType.Int24 => new IntegerStore<Raw3, Int24Codec>(path, access, options, opening),
            DataType.UInt24 => new IntegerStore<Raw3, UInt24Codec>(path, access, options, opening),
            DataType.Int40 => new IntegerStore<Raw5, Int40Codec>(path, access, options, opening),
            DataType.UInt40 => new IntegerStore<Raw5, UInt40Codec>(path, access, options, opening),
            DataType.Int48 => new IntegerStore<Raw6, Int48Codec>(path, access, options, opening),
            DataType.UInt48 => new IntegerStore<Raw6, UInt48Codec>(path, access, options, opening),
            DataType.Int56 => new IntegerStore<Raw7, Int56Codec>(path, access, options, opening),
            _ => new IntegerStore<Raw7, UInt56Codec>(path, access, options, opening),
        };
    }
}

/// <summary>An <see cref="IntegerStore"/> of <typeparamref name="TRaw"/> items, converted by <typeparamref name="TCodec"/>.</summary>
internal sealed class IntegerStore<TRaw, TCodec> : IntegerStore
    where TRaw : unmanaged
    where TCodec : IIntegerCodec<TRaw>
{
    private const int Chunk = 4096;
    private readonly ListMmf<TRaw> _list;

    public IntegerStore(string path, FileAccess access, ListMmfOptions options, WriterOpening opening)
    {
        _list = new ListMmf<TRaw>(path, access, options, TCodec.DataType, requireDataType: true, description: null, opening)
        {
            ReopensOnReplacement = false,
        };
    }

    public override DataType DataType => TCodec.DataType;

    public override long Count => _list.Count;

    public override bool IsReplaced => _list.IsReplaced;

    public override long this[long index] => Checked(_list[index], index);

    public override void Add(long value) => _list.Add(TCodec.FromInt64(value));

    public override void AddRange(ReadOnlySpan<long> values)
    {
        Span<TRaw> target = _list.Reserve(values.Length);
        for (int i = 0; i < values.Length; i++)
        {
            target[i] = TCodec.FromInt64(values[i]);
        }

        _list.PublishReserved(values.Length);
    }

    public override void CopyTo(long start, Span<long> destination)
    {
        for (int done = 0; done < destination.Length; done += Chunk)
        {
            int length = Math.Min(Chunk, destination.Length - done);
            ReadOnlySpan<TRaw> source = _list.AsSpan(start + done, length);
            Span<long> target = destination.Slice(done, length);
            if (typeof(TRaw) == typeof(long))
            {
                System.Runtime.InteropServices.MemoryMarshal.Cast<TRaw, long>(source).CopyTo(target);
                continue;
            }

            for (int i = 0; i < source.Length; i++)
            {
                target[i] = Checked(source[i], start + done + i);
            }
        }

        GC.KeepAlive(_list);
    }

    public override void Truncate(long newCount) => _list.Truncate(newCount);

    public override void TruncateBeginning(long count) => _list.TruncateBeginning(count);

    public override void Flush() => _list.Flush();

    public override ListMmfStorage Storage => _list.Storage;

    public override void Dispose() => _list.Dispose();

    /// <summary>A UInt64 item above long.MaxValue has no long; it is refused rather than read as a negative number.</summary>
    private long Checked(TRaw raw, long index)
    {
        long value = TCodec.ToInt64(raw);
        if (typeof(TRaw) == typeof(ulong) && value < 0)
        {
            throw new ListMmfFormatException(_list.Path, $"the UInt64 item at index {index:N0} is above " +
                $"Int64.MaxValue and cannot be read as a long.");
        }

        return value;
    }
}
