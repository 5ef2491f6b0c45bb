using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using System.Threading;
using ListMmf.Interop;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// Windows: FlushViewOfFile (retried as the runtime retries it) and FlushFileBuffers, the share mode as the writer
/// lock, NTFS allocating on SetLength. Not run on this project's own machines except under Wine (<c>.ci/wine-tests</c>);
/// the GitHub workflow's Windows job runs it on real NTFS.
/// </summary>
[SupportedOSPlatform("windows")]
internal sealed unsafe class WindowsStoragePlatform : StoragePlatform
{
    /// <summary>Back-off rounds for FlushViewOfFile, sleeping 1, 2, 4, ... 16,384 ms between them (about 33 s in all).</summary>
    private const int FlushWaits = 15;

    private const int FlushRetriesPerWait = 20;

    /// <summary>Ignoring case, as NTFS does.</summary>
    public override StringComparison PathComparison => StringComparison.OrdinalIgnoreCase;

    public override bool SupportsPosixMapping => false;

    public override bool MeansNameTaken(IOException exception) =>
        (exception.HResult & 0xFFFF) is Kernel32.ErrorFileExists or Kernel32.ErrorAlreadyExists;

    /// <summary>
    /// The boot counter Windows keeps in the registry (Session Manager\Memory Management\PrefetchParameters, BootId), one
    /// more at each boot; 0 where it is missing (Wine has none) or cannot be read, and then a file's live count is
    /// trusted as version 1's is. Not run on this project's own machines: real Windows runs it in the GitHub workflow.
    /// </summary>
    public override ulong ReadBootSession()
    {
        try
        {
            using Microsoft.Win32.RegistryKey? key = Microsoft.Win32.Registry.LocalMachine.OpenSubKey(
                @"SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management\PrefetchParameters");
            return key?.GetValue("BootId") is int bootId && bootId != 0 ? (ulong)(uint)bootId : 0;
        }
        catch (Exception exception) when (exception is System.Security.SecurityException or UnauthorizedAccessException or IOException)
        {
            return 0;
        }
    }

    /// <summary>FlushFileBuffers needs a handle with write access.</summary>
    public override bool ReadersCanFlush => false;

    public override void FlushFile(SafeFileHandle file, string path)
    {
        if (!Kernel32.FlushFileBuffers(file))
        {
            throw Kernel32.Failure("FlushFileBuffers", path, Marshal.GetLastPInvokeError());
        }
    }

    /// <summary>
    /// Nothing: NTFS logs the create and the rename in its journal, and FlushFileBuffers of the file commits it.
    /// (A directory handle needs backup semantics to open; the runtime does not flush directories either.)
    /// </summary>
    public override void FlushDirectory(string directory, string path)
    {
    }

    /// <summary>
    /// FlushViewOfFile fails intermittently with ERROR_LOCK_VIOLATION while NTFS is writing the same pages; the
    /// runtime's own MemoryMappedView retries it with growing pauses, and so does this.
    /// </summary>
    public override void FlushView(byte* address, long length, string path)
    {
        if (Kernel32.FlushViewOfFile((nint)address, (nuint)length))
        {
            return;
        }

        int error = Marshal.GetLastPInvokeError();
        for (int wait = 0; error == Kernel32.ErrorLockViolation && wait < FlushWaits; wait++)
        {
            Thread.Sleep(1 << wait);
            for (int retry = 0; retry < FlushRetriesPerWait; retry++)
            {
                if (Kernel32.FlushViewOfFile((nint)address, (nuint)length))
                {
                    return;
                }

                error = Marshal.GetLastPInvokeError();
                if (error != Kernel32.ErrorLockViolation)
                {
                    break;
                }

                Thread.Sleep(0);
            }
        }

        throw Kernel32.Failure("FlushViewOfFile", path, error);
    }

    /// <summary>
    /// The share mode: Windows itself refuses a second open of the sidecar while this handle lives, and deletes the
    /// sidecar when the handle closes, a killed writer's too; nobody else can have it open by then. A reparse point
    /// or a second name of another file at the sidecar's name is not a sidecar: it was opened as itself (never
    /// followed), so closing it deletes that name alone, never what it names, and the sidecar is opened again. No
    /// writer can hold what is removed so: it would have it open without sharing, and this open would have failed.
    /// </summary>
    public override SafeHandle LockWriter(string lockPath, string path)
    {
        for (int attempt = 1; ; attempt++)
        {
            SafeFileHandle file = Kernel32.OpenLockFile(lockPath, out int error);
            if (error is Kernel32.ErrorSharingViolation or Kernel32.ErrorLockViolation)
            {
                file.Dispose();
                throw new ListMmfLockedException(path, "another writer has the file open for writing; a file has one writer at a time.");
            }

            if (error != 0)
            {
                file.Dispose();
                throw new ListMmfException(path, $"the writer lock file '{lockPath}' could not be opened: " +
                    $"{Marshal.GetPInvokeErrorMessage(error)} (error {error}).");
            }

            if (Kernel32.LockFileProblem(file) is not { } problem)
            {
                return file;
            }

            file.Dispose();
            if (attempt >= PlantedNameAttempts)
            {
                throw ForeignLockFile(lockPath, path, problem);
            }
        }
    }

    /// <summary>How often a name planted at the sidecar's is removed before the writer gives up.</summary>
    private const int PlantedNameAttempts = 16;

    /// <summary>
    /// A rename with POSIX semantics where the file system has it (NTFS on Windows 10 1709 and later): the open and
    /// mapped old file loses its name at once, as on Unix. Elsewhere (FAT, older systems, Wine), where no file can be
    /// renamed over one that is open, it takes two renames: the old file is moved aside to a free name of its own
    /// (<see cref="AsideFor"/>) and the new one renamed into the freed place; the old one is then deleted, which
    /// takes effect when its last reader closes it. Every handle this library opens allows delete sharing, which
    /// both ways need. Before the first rename, an intent file (<see cref="IntentFor"/>) records, durably, which
    /// aside name the old file goes to: after a crash, or when both the second rename and the move back fail, the
    /// next writer's <see cref="RecoverReplacement"/> knows which old file is this replacement's, and never takes an
    /// older one that a reader still holds under another aside name.
    /// </summary>
    public override void ReplaceFile(string temporary, string target)
    {
        if (Kernel32.RenameReplacingPosix(temporary, target) == 0)
        {
            return;
        }

        string intent = IntentFor(target);
        string aside;
        try
        {
            aside = MoveAside(target, intent);
        }
        catch
        {
            DurableFile.TryDelete(intent);
            throw;
        }

        try
        {
            FileReplacement.Step(ReplacementStep.RenameIntoPlace);
            File.Move(temporary, target);
        }
        catch (Exception failure) when (failure is IOException or UnauthorizedAccessException)
        {
            try
            {
                FileReplacement.Step(ReplacementStep.PutBack);
                File.Move(aside, target);
            }
            catch (Exception putBack) when (putBack is IOException or UnauthorizedAccessException)
            {
                // The intent stays: the path is empty, and the next writer's open puts the recorded old file back.
                throw new IOException($"the new file could not be renamed into place ({failure.Message}), and the old " +
                    $"file could not be moved back from '{aside}' ({putBack.Message}).", failure);
            }

            DurableFile.TryDelete(intent);
            throw;
        }

        DurableFile.TryDelete(intent);
        DurableFile.TryDelete(aside);
    }

    /// <summary>
    /// Finishes, under the writer lock, a replacement whose intent file is still there: with no file at the path,
    /// the new file is renamed in if it is at the temporary name (it was complete and durable before the intent was
    /// written), else the old file is moved back from the aside name the intent records. Then the intent goes, and
    /// with a file at the path every old file left aside goes too (those readers still hold go when they close them).
    /// </summary>
    /// <exception cref="ListMmfException">The path is empty and the file recorded could not be put back.</exception>
    public override void RecoverReplacement(string target)
    {
        string intent = IntentFor(target);
        if (File.Exists(intent) && !File.Exists(target))
        {
            string temporary = DurableFile.TemporaryFor(target);
            string source = File.Exists(temporary) ? temporary : ReadIntent(intent, target);
            try
            {
                File.Move(source, target);
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                throw new ListMmfException(target, $"a replacement was interrupted with no file at the path, and " +
                    $"'{source}' could not be put back: {exception.Message}", exception);
            }
        }

        if (!File.Exists(target))
        {
            return;
        }

        DurableFile.TryDelete(intent);
        for (int i = 0; i < AsideNames; i++)
        {
            DurableFile.TryDelete(AsideFor(target, i));
        }
    }

    public override (ulong Device, ulong File)? IdentityOf(SafeFileHandle file) => Kernel32.Identity(file);

    /// <summary>A handle opened and closed: a Windows lock belongs to the handle that took it, so no lock is lost.</summary>
    public override (ulong Device, ulong File)? IdentityByOpening(string path)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        try
        {
            using SafeFileHandle file = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            return Kernel32.Identity(file);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The intent file shows a replacement that may be between its renames.</summary>
    public override bool MayBeReplacing(string path) => File.Exists(IntentFor(path));

    public override bool RenamesOpenFiles => false;

    /// <summary>How many old files moved aside may still be open by readers at once.</summary>
    private const int AsideNames = 64;

    /// <summary>The <paramref name="index"/>th name an old file is moved aside to before it is deleted.</summary>
    internal static string AsideFor(string target, int index) => $"{target}.listmmf.old{index}";

    /// <summary>The file that records, during a replacement's two renames, where the old file went.</summary>
    internal static string IntentFor(string target) => target + ".listmmf.replacing";

    /// <summary>
    /// Moves the old file to the first aside name that is free, having recorded that name in the intent file. A name
    /// still held by a deleted file that a reader keeps open is skipped; one left by a killed writer is deleted
    /// first, which frees it when nobody holds it.
    /// </summary>
    private string MoveAside(string target, string intent)
    {
        for (int i = 0; i < AsideNames; i++)
        {
            string aside = AsideFor(target, i);
            DurableFile.TryDelete(aside);
            if (File.Exists(aside))
            {
                continue;
            }

            WriteIntent(intent, aside, target);
            try
            {
                FileReplacement.Step(ReplacementStep.MoveAside);
                File.Move(target, aside);
                return aside;
            }
            catch (IOException exception) when ((exception.HResult & 0xFFFF) is Kernel32.ErrorAlreadyExists or Kernel32.ErrorFileExists)
            {
            }
        }

        throw new IOException($"the old file could not be moved aside: the {AsideNames} names '{AsideFor(target, 0)}' " +
            $"to '{AsideFor(target, AsideNames - 1)}' are held by old files that readers still have open.");
    }

    /// <summary>Writes the aside name to the intent file and makes it durable, before the old file is moved.</summary>
    private void WriteIntent(string intent, string aside, string target)
    {
        using FileStream file = ExclusiveFile.CreateReplacingLeftover(intent, FileAccess.Write);
        file.Write(System.Text.Encoding.UTF8.GetBytes(Path.GetFileName(aside)));
        FlushFile(file.SafeFileHandle, target);
    }

    /// <summary>The aside path an intent file records; it names a file beside the target, nothing else.</summary>
    private static string ReadIntent(string intent, string target)
    {
        byte[] text = SideFile.ReadAll(intent, "the replacement's intent file")
            ?? throw new FileNotFoundException($"Could not find file '{intent}'.", intent);
        string name = System.Text.Encoding.UTF8.GetString(text).Trim();
        for (int i = 0; i < AsideNames; i++)
        {
            string aside = AsideFor(target, i);
            if (string.Equals(name, Path.GetFileName(aside), StringComparison.OrdinalIgnoreCase))
            {
                return aside;
            }
        }

        throw new ListMmfException(target, $"a replacement was interrupted with no file at the path, and its intent " +
            $"file '{intent}' names no old file ('{name}').");
    }

    public override string CanonicalPath(string fullPath) =>
        File.Exists(fullPath) ? new FileInfo(fullPath).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? fullPath : fullPath;

    /// <summary>NTFS allocates the clusters of a non-sparse file when its end is moved.</summary>
    protected override void Allocate(FileStream file, long oldLength, long newLength, string path) => file.SetLength(newLength);
}
