using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using CommunityToolkit.HighPerformance.Buffers;
using ListMmf.Interop;

namespace ListMmf.Storage;

/// <summary>
/// macOS: F_FULLFSYNC for durability (fsync only reaches the drive's cache there), zero-fill for growth, macOS's
/// constants. Not run on this project's own machines: it compiles into the same assembly, is checked by the
/// platform analyzer and runs in the GitHub workflow's macOS job.
/// </summary>
[SupportedOSPlatform("macos")]
internal sealed class MacOSStoragePlatform : UnixStoragePlatform
{
    private const int ZeroChunkBytes = 1 << 20;

    /// <summary>Ignoring case, as APFS and HFS+ do by default.</summary>
    public override StringComparison PathComparison => StringComparison.OrdinalIgnoreCase;

    protected override int MsSync => Libc.MacOS.MsSync;

    protected override int OpenCloseOnExec => Libc.MacOS.OpenCloseOnExec;

    protected override int WouldBlock => Libc.MacOS.WouldBlock;

    protected override int MapAnonymous => Libc.MacOS.MapAnonymous;

    protected override int OpenNoFollow => Libc.MacOS.OpenNoFollow;

    protected override int TooManyLinks => Libc.MacOS.TooManyLinks;

    protected override int OpenNonBlocking => Libc.MacOS.OpenNonBlocking;

    protected override int OpenDirectory => Libc.MacOS.OpenDirectory;

    /// <summary>kern.bootsessionuuid, a UUID drawn at each boot.</summary>
    public override ulong ReadBootSession() => SessionFromUuid(Libc.SystemString("kern.bootsessionuuid"));

    /// <summary>F_FULLFSYNC; plain fsync only where the file system refuses F_FULLFSYNC (some network and FUSE file systems).</summary>
    protected override void SyncDescriptor(int fd, string path, bool isDirectory = false)
    {
        if (Libc.FControl(fd, Libc.MacOS.FullFSync) == 0)
        {
            return;
        }

        int errno = Marshal.GetLastPInvokeError();
        if (errno is not (Libc.Errors.NotSupportedMacOS or Libc.Errors.NotTty or Libc.Errors.InvalidArgument))
        {
            throw Libc.Failure("fcntl(F_FULLFSYNC)", path, errno);
        }

        base.SyncDescriptor(fd, path, isDirectory);
    }

    /// <summary>macOS has no posix_fallocate, and fcntl(F_PREALLOCATE) takes a variadic pointer; writing zeros allocates the blocks.</summary>
    protected override void Allocate(FileStream file, long oldLength, long newLength, string path)
    {
        file.SetLength(newLength);
        using SpanOwner<byte> zeros = SpanOwner<byte>.Allocate((int)Math.Min(ZeroChunkBytes, newLength - oldLength), AllocationMode.Clear);
        for (long offset = oldLength; offset < newLength; offset += zeros.Length)
        {
            int count = (int)Math.Min(zeros.Length, newLength - offset);
            RandomAccess.Write(file.SafeFileHandle, zeros.Span[..count], offset);
        }
    }
}
