using System;
using System.Globalization;
using System.IO;

namespace ListMmf.Tool.Files;

/// <summary>A bit file (code 1): its bits as 0 and 1. The fingerprint is the count of set bits, read from every word.</summary>
internal sealed class BitColumnView : ColumnView
{
    private readonly ListMmfBitArray _bits;

    public BitColumnView(string path, string name)
        : base(name, DataType.Bit)
    {
        _bits = new ListMmfBitArray(path, FileAccess.Read);
    }

    public override long Count => _bits.Count;

    public override string Format(long index) => _bits[index] ? "1" : "0";

    public override bool TryWriteUtf8(long index, Span<byte> destination, out int written)
    {
        written = 0;
        if (destination.IsEmpty)
        {
            return false;
        }

        destination[0] = _bits[index] ? (byte)'1' : (byte)'0';
        written = 1;
        return true;
    }

    public override DateTime TimeAt(long index) => throw new InvalidOperationException($"{Name} holds no times.");

    public override string Fingerprint => string.Create(CultureInfo.InvariantCulture, $"{_bits.PopCount():N0} bits set");

    public override ulong Hash() => throw new NotSupportedException("A bit file is fingerprinted by its set bits.");

    /// <summary>Opening checked the header and the bit count against the file; counting the set bits reads every word.</summary>
    public override void Verify(IProgress<double>? progress)
    {
        _bits.PopCount();
        progress?.Report(1);
    }

    public override void Dispose() => _bits.Dispose();
}
