using System;
using System.Globalization;
using ListMmf.Sealed;
using System.Runtime.InteropServices;

namespace ListMmf.Tool.Files;

/// <summary>
/// A file of odd-width integers (Int24 to UInt56), in either form: its stored bytes as items of
/// <typeparamref name="TRaw"/>, a struct of the width (the hash and the check through the file), each widened to its
/// value, sign-extended for the Int codes.
/// </summary>
internal sealed unsafe class IntegerColumnView<TRaw> : ColumnView
    where TRaw : unmanaged
{
    private readonly IReadOnlyListMmf<TRaw> _raw;
    private readonly bool _signed;

    /// <summary>A view of the file <paramref name="raw"/>, which it disposes.</summary>
    public IntegerColumnView(IReadOnlyListMmf<TRaw> raw, string name, DataType dataType)
        : base(name, dataType)
    {
        _raw = raw;
        _signed = DataTypeInfo.Of(dataType).Kind == DataTypeKind.SignedInteger;
    }

    public override long Count => _raw.Count;

    public override string Format(long index) => ValueAt(index).ToString(CultureInfo.InvariantCulture);

    public override bool TryWriteUtf8(long index, Span<byte> destination, out int written) =>
        ValueAt(index).TryFormat(destination, out written, default, CultureInfo.InvariantCulture);

    public override DateTime TimeAt(long index) => throw new InvalidOperationException($"{Name} holds no times.");

    public override ulong Hash() => _raw.ComputeXxHash3();

    public override void Verify(IProgress<double>? progress) => _raw.Verify(progress);

    public override void Dispose() => ((IDisposable)_raw).Dispose();

    private long ValueAt(long index)
    {
        TRaw raw = _raw[index];
        return SealedValues.Widen(new ReadOnlySpan<byte>(&raw, sizeof(TRaw)), _signed);
    }
}

/// <summary>The stored bytes of one Int24 or UInt24 item.</summary>
[StructLayout(LayoutKind.Sequential, Size = 3)]
internal struct Raw3;

/// <summary>The stored bytes of one Int40 or UInt40 item.</summary>
[StructLayout(LayoutKind.Sequential, Size = 5)]
internal struct Raw5;

/// <summary>The stored bytes of one Int48 or UInt48 item.</summary>
[StructLayout(LayoutKind.Sequential, Size = 6)]
internal struct Raw6;

/// <summary>The stored bytes of one Int56 or UInt56 item.</summary>
[StructLayout(LayoutKind.Sequential, Size = 7)]
internal struct Raw7;
