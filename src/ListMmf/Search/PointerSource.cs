using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>Items at a pointer: memory the caller keeps alive, such as a sealed file's directory of first items.</summary>
internal readonly unsafe struct PointerSource<T>(T* items) : IItemSource<T>
    where T : unmanaged
{
    public T this[long index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => items[index];
    }
}
