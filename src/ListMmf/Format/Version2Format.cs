using System;

namespace ListMmf;

/// <summary>
/// Version 2: the header on 4 KiB blocks of its own, with a guarded live count, a durable count, the boot session of
/// the live count's writer, the item size, the description and a checksum. A reader of another boot reads the durable
/// count: the live one may have reached the disk before its items.
/// </summary>
internal sealed class Version2Format : HeaderFormat
{
    public override ListMmfFormatVersion Version => ListMmfFormatVersion.Version2;

    public override int MarkOffset => ListMmfHeader.StateOffset2;

    public override string MarkField => "state";

    public override long LiveCountGuard => ListMmfHeader.LiveCountGuard;

    public override bool HasDurableCount => true;

    public override bool DescribesItems => true;

    public override bool OpenedBy1x => false;

    /// <summary>Where the system tells no boots apart, every session is 0 and the live count is trusted.</summary>
    public override bool TrustsLiveCount(ulong recorded, ulong current) => recorded == current;

    /// <summary>The items' first byte: the header lies on blocks of its own.</summary>
    public override long FirstEarlyWritebackByte(int itemsOffset) => itemsOffset;

    public override int HeaderSize(ReadOnlySpan<byte> description) => ListMmfHeader.Version2SizeFor(description.Length);

    public override void WriteEmpty(Span<byte> header, DataType dataType, int itemSize, ReadOnlySpan<byte> description, ulong session) =>
        ListMmfHeader.WriteVersion2(header, dataType, itemSize, description, session);
}
