using System;

namespace ListMmf;

/// <summary>
/// The rules of one appendable format version where the versions differ (docs/file-format.md), one class each:
/// <see cref="Version1"/>, ListMmf 1.x's 16-byte header, and <see cref="Version2"/>, the header on a block of its own.
/// Code asks a rule by its name instead of testing the version number; a sealed file (version 3) has its own header,
/// <see cref="SealedHeader"/>.
/// </summary>
internal abstract class HeaderFormat
{
    /// <summary>ListMmf 1.x's format (<see cref="Version1Format"/>).</summary>
    public static HeaderFormat Version1 { get; } = new Version1Format();

    /// <summary>The format with a durable count (<see cref="Version2Format"/>).</summary>
    public static HeaderFormat Version2 { get; } = new Version2Format();

    /// <summary>The version as the public API numbers it.</summary>
    public abstract ListMmfFormatVersion Version { get; }

    /// <summary>The header field that holds the replaced mark (<see cref="ListMmfHeader.ReplacedMark"/>): its offset.</summary>
    public abstract int MarkOffset { get; }

    /// <summary>The header field that holds the replaced mark, as messages name it.</summary>
    public abstract string MarkField { get; }

    /// <summary>The bit every live count of this format is stored with (<see cref="ListMmfHeader.LiveCountGuard"/>), or 0.</summary>
    public abstract long LiveCountGuard { get; }

    /// <summary>
    /// Whether the header keeps a durable count, raised only once its items are on stable storage, and the boot session
    /// its live count was written in; without one, the live count is the only count.
    /// </summary>
    public abstract bool HasDurableCount { get; }

    /// <summary>Whether the header records the items' size and description; without, a description lives in a file beside the list.</summary>
    public abstract bool DescribesItems { get; }

    /// <summary>Whether a ListMmf 1.x writer may open the file, which this library's writers then lock out (the 1.x lock).</summary>
    public abstract bool OpenedBy1x { get; }

    /// <summary>The format a new file is created in.</summary>
    public static HeaderFormat Of(ListMmfFormatVersion version) => version == ListMmfFormatVersion.Version1 ? Version1 : Version2;

    /// <summary>
    /// Whether a reader in boot <paramref name="current"/> may read the live count of a file whose header records
    /// boot <paramref name="recorded"/>; where not, it reads the durable count.
    /// </summary>
    public abstract bool TrustsLiveCount(ulong recorded, ulong current);

    /// <summary>
    /// The first byte a writeback started before a flush may cover, in a file whose items start at
    /// <paramref name="itemsOffset"/>: never one that holds the count, which must reach the disk after its items.
    /// </summary>
    public abstract long FirstEarlyWritebackByte(int itemsOffset);

    /// <summary>The size of a new file's header holding <paramref name="description"/>: where its items start.</summary>
    public abstract int HeaderSize(ReadOnlySpan<byte> description);

    /// <summary>
    /// A new, empty header in <paramref name="header"/> (<see cref="HeaderSize"/> long), written in boot
    /// <paramref name="session"/>.
    /// </summary>
    public abstract void WriteEmpty(Span<byte> header, DataType dataType, int itemSize, ReadOnlySpan<byte> description, ulong session);
}
