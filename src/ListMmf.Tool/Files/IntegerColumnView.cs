using System;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;

namespace ListMmf.Tool.Files;

/// <summary>
/// A file of odd-width integers (Int24 to UInt56): the values through <see cref="IntegerListMmf"/>, the stored
/// bytes (for the hash and the check through the file) through a list of <typeparamref name="TRaw"/>, a struct of
/// the width.
/// </summary>
internal sealed class IntegerColumnView<TRaw> : ColumnView
    where TRaw : unmanaged
{
    private readonly ListMmf<TRaw> _raw;
    private readonly IntegerListMmf _values;

    public IntegerColumnView(string path, string name, DataType dataType)
        : base(name, dataType)
    {
        _raw = new ListMmf<TRaw>(path, FileAccess.Read);
        try
        {
            _values = IntegerListMmf.Open(path, FileAccess.Read);
        }
        catch
        {
            _raw.Dispose();
            throw;
        }
    }

    public override long Count => Math.Min(_raw.Count, _values.Count);

    public override string Format(long index) => _values[index].ToString(CultureInfo.InvariantCulture);

    public override bool TryWriteUtf8(long index, Span<byte> destination, out int written) =>
        _values[index].TryFormat(destination, out written, default, CultureInfo.InvariantCulture);

    public override DateTime TimeAt(long index) => throw new InvalidOperationException($"{Name} holds no times.");

    public override ulong Hash() => _raw.ComputeXxHash3();

    public override void Verify(IProgress<double>? progress) => _raw.Verify(progress);

    public override void Dispose()
    {
        _values.Dispose();
        _raw.Dispose();
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
