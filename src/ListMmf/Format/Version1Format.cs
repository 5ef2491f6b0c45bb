using System;

namespace ListMmf;

/// <summary>
/// Version 1, ListMmf 1.x's format: Int32 version 0 (the replaced mark there), Int32 data-type code, Int64 count, and
/// the items at byte 16. The count is the only count: after a power loss it may be newer than its items.
/// </summary>
internal sealed class Version1Format : HeaderFormat
{
    public override ListMmfFormatVersion Version => ListMmfFormatVersion.Version1;

    public override int MarkOffset => 0;

    public override string MarkField => "version";

    public override long LiveCountGuard => 0;

    public override bool HasDurableCount => false;

    public override bool DescribesItems => false;

    public override bool OpenedBy1x => true;

    public override bool TrustsLiveCount(ulong recorded, ulong current) => true;

    /// <summary>The page after the first: the first page holds the count, with the first items.</summary>
    public override long FirstEarlyWritebackByte(int itemsOffset) => Environment.SystemPageSize;

    public override int HeaderSize(ReadOnlySpan<byte> description) => ListMmfHeader.Version1Size;

    public override void WriteEmpty(Span<byte> header, DataType dataType, int itemSize, ReadOnlySpan<byte> description, ulong session) =>
        ListMmfHeader.WriteVersion1(header, dataType, 0);
}
