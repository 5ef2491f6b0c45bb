using System;
using System.Runtime.CompilerServices;

namespace ListMmf.Sealed;

/// <summary>
/// The distinct values of one block, for a dictionary codec (<see cref="SealedCodec.IntegerDictionary"/>): their
/// offsets from the block's smallest value ascending (<see cref="Entries"/>), and each value's index among them
/// (<see cref="Indexes"/>). An encoder keeps one and builds it block after block: its hash table is stamped with the
/// block it was filled for, so that no block clears it.
/// </summary>
internal sealed class BlockDictionary
{
    /// <summary>
    /// The most distinct values a dictionary holds: past it, indexes of 9 bits or more and the entries themselves leave
    /// little to gain over a frame, and a block of distinct values (a time column) stops being hashed after this many.
    /// </summary>
    public const int MaximumEntries = 256;

    /// <summary>Twice <see cref="MaximumEntries"/>, so that the open-addressed table stays at most half full.</summary>
    private const int TableBits = 9;

    private const int TableSize = 1 << TableBits;

    private readonly ulong[] _keys = new ulong[TableSize];
    private readonly int[] _stamps = new int[TableSize];
    private readonly ushort[] _ranks = new ushort[TableSize];
    private readonly ushort[] _slots = new ushort[SealedLayout.BlockValues];
    private readonly ulong[] _entries = new ulong[MaximumEntries];
    private readonly ushort[] _entrySlots = new ushort[MaximumEntries];
    private readonly ulong[] _indexes = new ulong[SealedLayout.BlockValues];
    private int _stamp;
    private int _count;
    private int _values;

    /// <summary>The distinct values' offsets from the smallest, ascending (the first is zero).</summary>
    public ReadOnlySpan<ulong> Entries => _entries.AsSpan(0, _count);

    /// <summary>Each value's index into <see cref="Entries"/>.</summary>
    public ReadOnlySpan<ulong> Indexes => _indexes.AsSpan(0, _values);

    /// <summary>
    /// Builds the dictionary of <paramref name="values"/>, whose smallest is <paramref name="min"/> in the order their
    /// kind reads them; false, as soon as it is known, where they hold more than <paramref name="limit"/> distinct
    /// values (at most <see cref="MaximumEntries"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool TryBuild(ReadOnlySpan<long> values, long min, int limit)
    {
        limit = Math.Min(limit, MaximumEntries);
        int stamp = ++_stamp;
        if (stamp == int.MaxValue)
        {
            Array.Clear(_stamps);
            stamp = _stamp = 1;
        }

        ulong[] keys = _keys;
        int[] stamps = _stamps;
        int count = 0;
        for (int i = 0; i < values.Length; i++)
        {
            ulong key = (ulong)(values[i] - min);
            int slot = (int)((key * 0x9E3779B97F4A7C15UL) >> (64 - TableBits));
            while (stamps[slot] == stamp && keys[slot] != key)
            {
                slot = (slot + 1) & (TableSize - 1);
            }

            if (stamps[slot] != stamp)
            {
                if (count == limit)
                {
                    return false;
                }

                stamps[slot] = stamp;
                keys[slot] = key;
                _entries[count] = key;
                _entrySlots[count++] = (ushort)slot;
            }

            _slots[i] = (ushort)slot;
        }

        Span<ulong> entries = _entries.AsSpan(0, count);
        entries.Sort(_entrySlots.AsSpan(0, count));
        for (int rank = 0; rank < count; rank++)
        {
            _ranks[_entrySlots[rank]] = (ushort)rank;
        }

        for (int i = 0; i < values.Length; i++)
        {
            _indexes[i] = _ranks[_slots[i]];
        }

        _count = count;
        _values = values.Length;
        return true;
    }
}
