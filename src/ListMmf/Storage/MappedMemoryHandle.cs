using System;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ListMmf.Interop;

namespace ListMmf.Storage;

/// <summary>One <c>mmap</c> reservation, unmapped when disposed or, if its list was never disposed, when collected.</summary>
[SupportedOSPlatform("linux")]
[SupportedOSPlatform("macos")]
internal sealed unsafe class MappedMemoryHandle : SafeHandle
{
    private readonly nuint _length;

    private MappedMemoryHandle(nint address, long length)
        : base(invalidHandleValue: 0, ownsHandle: true)
    {
        SetHandle(address);
        _length = (nuint)length;
    }

    public override bool IsInvalid => handle == 0;

    public byte* Address => (byte*)handle;

    /// <summary>
    /// Maps <paramref name="length"/> bytes of the file <paramref name="fd"/> from offset 0, shared, at the next
    /// placement (<see cref="UnixStoragePlatform.MapShared"/>), or where the system places it unless
    /// <paramref name="placed"/>.
    /// </summary>
    public static MappedMemoryHandle Map(int fd, long length, bool writable, string path, bool placed = true) =>
        new(((UnixStoragePlatform)StoragePlatform.Current).MapShared(fd, length, writable, path, placed), length);

    protected override bool ReleaseHandle() => Libc.Unmap(handle, _length) == 0;
}
