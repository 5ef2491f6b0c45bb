using System;
using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>
/// A pinned array whose usable part starts on a 64-byte boundary, so that each 64-byte node of an index is one
/// cache line. Pinned arrays live on the pinned object heap: the address never moves and nothing needs freeing.
/// </summary>
internal readonly unsafe struct AlignedBuffer<T>
    where T : unmanaged
{
    private const int Alignment = 64;
    private readonly T[] _array;

    public AlignedBuffer(long length)
    {
        int slack = (Alignment / sizeof(T)) + 1;
        _array = GC.AllocateUninitializedArray<T>(checked((int)length + slack), pinned: true);
        byte* start = (byte*)Unsafe.AsPointer(ref _array[0]);
        long misalignment = (long)((nuint)start % Alignment);
        Pointer = (T*)(start + (misalignment == 0 ? 0 : Alignment - misalignment));
        Length = length;
    }

    /// <summary>The first element, 64-byte aligned.</summary>
    public T* Pointer { get; }

    public long Length { get; }

    /// <summary>The bytes this buffer holds.</summary>
    public long Bytes => _array is null ? 0 : (long)_array.Length * sizeof(T);
}
