using System;
using System.IO;
using System.IO.Hashing;
using System.Runtime.InteropServices;

namespace ListMmf.Tool.Files;

/// <summary>
/// A file's items for <see cref="ColumnView{T}"/>, whichever form the file is in: appendable (<see cref="ListMmf{T}"/>)
/// or sealed (<see cref="SealedListMmf{T}"/>). Both give the same XXH3 for the same items, so <c>verify</c> prints one
/// fingerprint before and after a seal.
/// </summary>
internal abstract class ColumnItems<T> : IDisposable
    where T : unmanaged
{
    public abstract long Count { get; }

    public abstract T this[long index] { get; }

    public static ColumnItems<T> Open(string path) =>
        SealedListMmf.IsSealed(path) ? new Sealed(new SealedListMmf<T>(path)) : new Appendable(new ListMmf<T>(path, FileAccess.Read));

    /// <summary>The XXH3 of the items' bytes.</summary>
    public abstract ulong Hash();

    public abstract void Verify(IProgress<double>? progress);

    public abstract void Dispose();

    private sealed class Appendable(ListMmf<T> list) : ColumnItems<T>
    {
        public override long Count => list.Count;

        public override T this[long index] => list[index];

        public override ulong Hash() => list.ComputeXxHash3();

        public override void Verify(IProgress<double>? progress) => list.Verify(progress);

        public override void Dispose() => list.Dispose();
    }

    private sealed class Sealed(SealedListMmf<T> list) : ColumnItems<T>
    {
        private const int Chunk = 1 << 16;

        public override long Count => list.Count;

        public override T this[long index] => list[index];

        public override ulong Hash()
        {
            var hash = new XxHash3();
            T[] items = new T[Chunk];
            for (long start = 0; start < list.Count; start += Chunk)
            {
                Span<T> chunk = items.AsSpan(0, (int)Math.Min(Chunk, list.Count - start));
                list.CopyTo(start, chunk);
                hash.Append(MemoryMarshal.AsBytes(chunk));
            }

            return hash.GetCurrentHashAsUInt64();
        }

        public override void Verify(IProgress<double>? progress) => list.Verify(progress);

        public override void Dispose() => list.Dispose();
    }
}
