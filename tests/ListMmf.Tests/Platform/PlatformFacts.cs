using System;
using System.Diagnostics;
using System.IO;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>A fact that needs Linux; elsewhere it reports as skipped, never as passed.</summary>
public sealed class LinuxFactAttribute : FactAttribute
{
    public LinuxFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "needs Linux";
        }
    }
}

/// <summary>A fact that needs a system where the library finds the file at a path without opening it (Linux's statx).</summary>
public sealed class PathIdentityFactAttribute : FactAttribute
{
    public PathIdentityFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "needs Linux: only there does the library find a path's device and inode without opening it (statx)";
        }
    }
}

/// <summary>A fact that needs a system where the library tells two open files apart (Linux's statx, Windows' file index).</summary>
public sealed class FileIdentityFactAttribute : FactAttribute
{
    public FileIdentityFactAttribute()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsWindows())
        {
            Skip = "needs Linux or Windows: the library does not tell open files apart on macOS";
        }
    }
}

/// <summary>A fact that needs Linux or macOS (POSIX limits, symbolic links without privileges, flock).</summary>
public sealed class UnixFactAttribute : FactAttribute
{
    public UnixFactAttribute()
    {
        if (OperatingSystem.IsWindows())
        {
            Skip = "needs Linux or macOS";
        }
    }
}

/// <summary>A fact that injects system-call failures into a child process with strace (Linux, strace installed).</summary>
public sealed class StraceFactAttribute : FactAttribute
{
    public StraceFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "needs Linux (strace fault injection)";
        }
        else if (!Tools.HasStrace)
        {
            Skip = "needs strace on the PATH for fault injection";
        }
    }
}

/// <summary>A fact that mounts small tmpfs file systems (Linux, as root): full disks, no inodes, read-only mounts.</summary>
public sealed class TmpfsFactAttribute : FactAttribute
{
    public TmpfsFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "needs Linux (tmpfs)";
        }
        else if (!Tools.CanMountTmpfs)
        {
            Skip = "needs permission to mount a tmpfs (root)";
        }
    }
}

/// <summary>What the machine offers the tests, found out once.</summary>
internal static class Tools
{
    private static readonly Lazy<bool> s_strace = new(() => Succeeds("strace", "-V"));
    private static readonly Lazy<bool> s_tmpfs = new(ProbeTmpfs);

    public static bool HasStrace => s_strace.Value;

    public static bool CanMountTmpfs => s_tmpfs.Value;

    /// <summary>Runs a program to completion; returns its exit code and standard error.</summary>
    public static (int ExitCode, string Error) Run(string program, params string[] args)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using Process process = Process.Start(start)!;
        string error = process.StandardError.ReadToEnd();
        process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, error);
    }

    private static bool Succeeds(string program, params string[] args)
    {
        try
        {
            return Run(program, args).ExitCode == 0;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return false;
        }
    }

    private static bool ProbeTmpfs()
    {
        string directory = Path.Combine(Path.GetTempPath(), "listmmf-tests", "probe-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        try
        {
            if (!Succeeds("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", directory))
            {
                return false;
            }

            return Succeeds("umount", directory);
        }
        finally
        {
            Directory.Delete(directory);
        }
    }
}

/// <summary>A fact that needs Windows (the Wine stage runs it): Windows-only code paths such as the two-rename replacement.</summary>
public sealed class WindowsFactAttribute : FactAttribute
{
    public WindowsFactAttribute()
    {
        if (!OperatingSystem.IsWindows())
        {
            Skip = "needs Windows (the Wine stage runs it): the code it checks runs only there";
        }
    }
}

/// <summary>A fact about the writer lock's sidecar going away with its writer (Linux, and Windows, which the Wine stage runs).</summary>
public sealed class LockFileRemovalFactAttribute : FactAttribute
{
    public LockFileRemovalFactAttribute()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsWindows())
        {
            Skip = "needs Linux or Windows: on macOS the library finds no file by its path, so it cannot tell that a " +
                "sidecar is still its own before removing it, and leaves it";
        }
    }
}

/// <summary>
/// A fact that needs Linux with transparent huge pages built in, where MADV_HUGEPAGE is known, and 4 KiB pages, with
/// which the library asks for large pages.
/// </summary>
public sealed class LargePageFactAttribute : FactAttribute
{
    public LargePageFactAttribute()
    {
        Skip = Unsupported();
    }

    /// <summary>Why the library asks for no large pages here, or null where it does.</summary>
    internal static string? Unsupported()
    {
        if (!OperatingSystem.IsLinux() || !Directory.Exists("/sys/kernel/mm/transparent_hugepage"))
        {
            return "needs Linux with transparent huge pages (/sys/kernel/mm/transparent_hugepage)";
        }

        return StoragePlatform.Current.LargePageBytes == 0
            ? $"needs 4 KiB pages: with {Environment.SystemPageSize / 1024} KiB pages the library asks for no large pages"
            : null;
    }
}

/// <summary>
/// A fact that needs a system that maps a file's pages in 2 MiB pages: Linux with transparent huge pages built in and
/// 4 KiB pages, and a file system that keeps files in 2 MiB folios (ext4 and XFS on recent kernels), as a probe in the
/// temporary directory shows (<see cref="FileLargePages"/>).
/// </summary>
public sealed class FileLargePageFactAttribute : FactAttribute
{
    public FileLargePageFactAttribute()
    {
        if (FileLargePages.Unavailable is string reason)
        {
            Skip = reason;
        }
    }
}
