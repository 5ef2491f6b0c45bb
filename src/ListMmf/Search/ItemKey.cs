using System.Runtime.CompilerServices;

namespace ListMmf.Search;

/// <summary>The key of a sorted list's item is the item itself.</summary>
internal readonly struct ItemKey<T> : IKeyOf<T, T>
    where T : unmanaged
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static T Of(in T item) => item;
}
