using System.IO;
using System.Numerics;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// Each probe is one <see cref="RandomAccess.Read(SafeFileHandle, System.Span{byte}, long)"/> (<c>pread</c>): no seek,
/// no shared file position, no user-space buffer: for a file where a mapping is not wanted (a network share).
/// </summary>
/// <typeparam name="T">The key type.</typeparam>
public sealed class RandomAccessSortedReader<T> : SortedFileReader<T>
    where T : unmanaged, IComparisonOperators<T, T, bool>
{
    /// <summary>Opens the sorted ListMmf file at <paramref name="path"/> for searching.</summary>
    public RandomAccessSortedReader(string path)
        : base(path)
    {
    }

    private protected override T ReadItem(long index) => ReadAt(Handle, index);
}
