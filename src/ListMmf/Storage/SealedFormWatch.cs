using System;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace ListMmf.Storage;

/// <summary>
/// What a reader whose file was sealed keeps of the sealed file at its path. The reader goes on reading the file it
/// maps, which holds the same items (a seal writes the published items of a file no writer holds); the start of the
/// sealed file stays mapped here, so that the mark an unseal writes into it before its rename is seen with a memory
/// read, no system call, and the reader then moves to the appendable file the unseal put at the path.
/// </summary>
internal sealed class SealedFormWatch : IDisposable
{
    private readonly MappedFileStart _start;

    private SealedFormWatch(MappedFileStart start) => _start = start;

    /// <summary>
    /// Whether the sealed file has been marked replaced: an unseal is putting the appendable form back at the path
    /// (or a killed unseal left the mark, in which case the path still holds this sealed file).
    /// </summary>
    public bool IsUnsealing
    {
        get
        {
            ref byte state = ref MemoryMarshal.GetReference(_start.Bytes[SealedLayout.StateOffset..]);
            return Volatile.Read(ref Unsafe.As<byte, int>(ref state)) == ListMmfHeader.ReplacedMark;
        }
    }

    /// <summary>Watches the file at <paramref name="path"/> when it is a sealed file; null when it is not, or is gone.</summary>
    /// <exception cref="ListMmfException">The path is a directory now, or cannot be opened.</exception>
    public static SealedFormWatch? TryOpen(string path)
    {
        MappedFileStart start;
        try
        {
            start = new MappedFileStart(path, SealedLayout.MagicOffset + 8);
        }
        catch (FileNotFoundException)
        {
            return null;
        }

        if (SealedHeader.IsSealed(start.Bytes))
        {
            return new SealedFormWatch(start);
        }

        start.Dispose();
        return null;
    }

    /// <inheritdoc/>
    public void Dispose() => _start.Dispose();
}
