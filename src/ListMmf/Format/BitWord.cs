namespace ListMmf;

/// <summary>One Int32 word of a bit file (code 1), the unit its header counts; only <see cref="ListMmfBitArray"/> opens such files.</summary>
internal readonly struct BitWord
{
#pragma warning disable CS0649 // Read through the mapping.
    public readonly uint Bits;
#pragma warning restore CS0649
}
