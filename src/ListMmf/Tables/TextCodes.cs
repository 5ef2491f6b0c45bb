using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ListMmf;

/// <summary>The codes of a <see cref="TextColumn"/>, a column of unsigned integers in either form, read and added as <see cref="uint"/>.</summary>
internal abstract class TextCodes
{
    /// <summary>Rows decoded at a time into a stack buffer.</summary>
    private protected const int Chunk = 1024;

    /// <summary>The column of codes.</summary>
    public abstract TableColumn Column { get; }

    /// <summary>How many distinct values the codes tell apart (at most <see cref="int.MaxValue"/>).</summary>
    public abstract long Limit { get; }

    public abstract uint this[long row] { get; }

    public abstract void AddRange(ReadOnlySpan<uint> codes);

    /// <summary>The codes of <paramref name="range"/>, a published range, into <paramref name="destination"/>.</summary>
    public abstract void CopyTo(IndexRange range, Span<uint> destination);

    /// <summary>The codes of a text column stored in <paramref name="column"/>, a column of Byte, UInt16 or UInt32.</summary>
    public static TextCodes Over(TableColumn column) => column switch
    {
        TableColumn<byte> bytes => new TextCodes<byte>(bytes),
        TableColumn<ushort> shorts => new TextCodes<ushort>(shorts),
        TableColumn<uint> ints => new TextCodes<uint>(ints),
        _ => throw new ArgumentOutOfRangeException(nameof(column), column.DataType, "A text column's codes are Byte, UInt16 or UInt32."),
    };
}

/// <summary>The codes of a <see cref="TextColumn"/> stored as <typeparamref name="T"/>.</summary>
internal sealed class TextCodes<T> : TextCodes
    where T : unmanaged, IBinaryInteger<T>, IUnsignedNumber<T>, IMinMaxValue<T>
{
    private readonly TableColumn<T> _column;

    public TextCodes(TableColumn<T> column) => _column = column;

    public override TableColumn Column => _column;

    public override long Limit => (long)Math.Min(ulong.CreateTruncating(T.MaxValue) + 1, int.MaxValue);

    public override uint this[long row]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => uint.CreateTruncating(_column[row]);
    }

    public override void AddRange(ReadOnlySpan<uint> codes)
    {
        if (typeof(T) == typeof(uint))
        {
            _column.AddCodes(MemoryMarshal.Cast<uint, T>(codes));
            return;
        }

        Span<T> narrow = stackalloc T[Chunk];
        while (!codes.IsEmpty)
        {
            int size = Math.Min(Chunk, codes.Length);
            for (int i = 0; i < size; i++)
            {
                narrow[i] = T.CreateTruncating(codes[i]);
            }

            _column.AddCodes(narrow[..size]);
            codes = codes[size..];
        }
    }

    public override void CopyTo(IndexRange range, Span<uint> destination)
    {
        if (typeof(T) == typeof(uint))
        {
            _column.CopyTo(range, MemoryMarshal.Cast<uint, T>(destination));
            return;
        }

        Span<T> buffer = stackalloc T[Chunk];
        for (long start = range.Start; start < range.End; start += Chunk)
        {
            var piece = new IndexRange(start, Math.Min(range.End, start + Chunk));
            ReadOnlySpan<T> codes = _column.Read(piece, buffer);
            Span<uint> wide = destination.Slice((int)(start - range.Start), codes.Length);
            for (int i = 0; i < codes.Length; i++)
            {
                wide[i] = uint.CreateTruncating(codes[i]);
            }
        }
    }
}
