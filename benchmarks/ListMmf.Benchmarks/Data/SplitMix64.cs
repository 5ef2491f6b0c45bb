namespace ListMmf.Benchmarks.Data;

/// <summary>
/// A tiny deterministic generator (SplitMix64). Unlike <see cref="System.Random"/>, whose algorithm may change
/// between .NET versions, it yields the same sequence everywhere, so generated data is the same byte for byte.
/// </summary>
internal struct SplitMix64
{
    private ulong _state;

    public SplitMix64(ulong seed) => _state = seed;

    public ulong Next()
    {
        ulong z = _state += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>A value in [0, <paramref name="bound"/>).</summary>
    public uint Below(uint bound) => (uint)(((Next() >> 32) * bound) >> 32);
}
