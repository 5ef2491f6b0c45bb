using System;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// Linux's cold reads: <c>preadv2(RWF_NOWAIT)</c> takes a range the page cache holds whole, at memory speed;
/// otherwise the range comes from a second descriptor of the same file opened with O_DIRECT (through
/// <c>/proc/self/fd</c>, so that it is the file the list maps even after a rename over its path), which leaves no
/// 4 KiB pages in the cache: the read-ahead that later brings the whole file in makes 2 MiB folios of it, and warm
/// searches keep their large pages. Where O_DIRECT is refused (tmpfs), a plain read.
/// </summary>
[SupportedOSPlatform("linux")]
internal sealed unsafe class LinuxColdReader : ColdReader
{
    private SafeFileHandle? _direct;
    private bool _noWaitMissing;

    public LinuxColdReader(SafeFileHandle file, string path)
        : base(file, path)
    {
        string descriptor = $"/proc/self/fd/{(int)file.DangerousGetHandle()}";
        int direct = Libc.Open(descriptor, Libc.OpenReadOnly | Libc.Linux.OpenDirect | Libc.Linux.OpenCloseOnExec);
        _direct = direct >= 0 ? new SafeFileHandle(direct, ownsHandle: true) : null;
    }

    public override int Read(long offset, byte* buffer, int length)
    {
        // The list's handle: held for the read, so that a list disposed meanwhile fails it rather than let its
        // descriptor's number, reused, read another file.
        bool held = false;
        File.DangerousAddRef(ref held);
        try
        {
            return ReadHeld(offset, buffer, length);
        }
        finally
        {
            if (held)
            {
                File.DangerousRelease();
            }
        }
    }

    public override void Dispose()
    {
        _direct?.Dispose();
        base.Dispose();
    }

    private int ReadHeld(long offset, byte* buffer, int length)
    {
        if (!_noWaitMissing)
        {
            var vector = new Libc.IoVector { Base = buffer, Length = (nuint)length };
            nint cached;
            try
            {
                cached = Libc.PReadV2((int)File.DangerousGetHandle(), &vector, 1, offset, Libc.Linux.ReadNoWait);
            }
            catch (EntryPointNotFoundException)
            {
                _noWaitMissing = true;
                cached = -1;
            }

            if (cached == length)
            {
                return length;
            }

            int error = cached < 0 ? Marshal.GetLastPInvokeError() : 0;
            if (error == Libc.Errors.NotSupportedLinux)
            {
                // A file system without non-blocking reads: every read goes to the disk path below.
                _noWaitMissing = true;
            }
            else if (cached < 0 && error != Libc.Linux.WouldBlock)
            {
                throw Libc.Failure("preadv2", Path, error);
            }
        }

        if (_direct is not null && ReadDirect(offset, buffer, length) is var direct and >= 0)
        {
            return direct;
        }

        return base.Read(offset, buffer, length);
    }

    /// <summary>The read through the O_DIRECT descriptor, or -1 where the file system refuses such reads (EINVAL).</summary>
    private int ReadDirect(long offset, byte* buffer, int length)
    {
        int fd = (int)_direct!.DangerousGetHandle();
        int total = 0;
        while (total < length)
        {
            nint read = Libc.PRead(fd, buffer + total, (nuint)(length - total), offset + total);
            if (read < 0)
            {
                int error = Marshal.GetLastPInvokeError();
                if (error == Libc.Errors.Interrupted)
                {
                    continue;
                }

                if (error == Libc.Errors.InvalidArgument && total == 0)
                {
                    // Some file systems open with O_DIRECT and refuse the reads (FUSE, larger blocks): plain reads from now on.
                    _direct.Dispose();
                    _direct = null;
                    return -1;
                }

                throw Libc.Failure("pread (O_DIRECT)", Path, error);
            }

            if (read == 0)
            {
                break;
            }

            total += (int)read;
        }

        return total;
    }
}
