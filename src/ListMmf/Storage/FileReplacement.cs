using System;
using System.IO;
using System.Threading;
using Microsoft.Win32.SafeHandles;

namespace ListMmf.Storage;

/// <summary>
/// Replacing a list's file by a rewritten one (TruncateBeginning, widening), and following such a replacement as a
/// reader. The writer writes the new file under a temporary name and makes it durable, marks the old file replaced,
/// renames the new one over it, and opens it. The mark comes before the rename so that no crash point strands a
/// reader on a file no name reaches: killed before the rename, the path still holds the marked file, which is whole;
/// readers keep reading it and the next writer's open clears the mark.
/// </summary>
internal static class FileReplacement
{
    /// <summary>How often a reader opening the path tries again while the file there is marked replaced.</summary>
    public const int OpenAttempts = 16;

    /// <summary>How long a reader waits for a path that a replacement has freed between its two renames.</summary>
    private const int FreePathWaitMilliseconds = 2_000;

    /// <summary>Called before each step on this thread: tests inject a failure, or a kill, at a named step.</summary>
    [ThreadStatic]
    internal static Action<ReplacementStep>? BeforeStep;

    /// <summary>
    /// Replaces the file that <paramref name="old"/> maps at <paramref name="path"/> by the one
    /// <paramref name="writeCopy"/> writes (and makes durable) at the temporary path it is given; then
    /// <paramref name="openNew"/> opens the renamed file and <paramref name="adopt"/> makes it the list's.
    /// </summary>
    /// <param name="path">The list's path, for messages (the new file goes where the held file was when it was opened).</param>
    /// <param name="old">The writer's storage of the file being replaced.</param>
    /// <param name="what">What the replacement does, for messages ("widen", "truncate the beginning of").</param>
    /// <param name="newContents">What the new file holds, for messages ("the 900 items after the first 100").</param>
    /// <param name="writeCopy">Creates and fills the new file at the temporary path given, durably.</param>
    /// <param name="openNew">Opens the file at the real path given, once renamed.</param>
    /// <param name="storageOf">The storage of the opened file, whose identity must be the copy's.</param>
    /// <param name="adopt">Makes the opened file the list's.</param>
    /// <param name="fault">Told, before it is thrown, the failure that leaves the list unable to go on: the new file
    /// is in place but could not be opened.</param>
    /// <exception cref="ListMmfException">A step failed; the message says whether the file is unchanged or the new file is in place.</exception>
    public static void Replace<TNew>(
        string path,
        IReplaceableStorage old,
        string what,
        string newContents,
        Action<string> writeCopy,
        Func<string, TNew> openNew,
        Func<TNew, IReplaceableStorage> storageOf,
        Action<TNew> adopt,
        Action<ListMmfException> fault)
        where TNew : IDisposable
    {
        // The file this writer holds, where it was at the open: a symbolic link at the path may name another file now,
        // which another writer may hold.
        string target = old.RealPath;
        string temporary = DurableFile.TemporaryFor(target);
        bool marked = false;
        bool renaming = false;
        (ulong, ulong)? copy = null;
        try
        {
            if (!old.IsStillAtRealPath())
            {
                throw new IOException($"the file this writer holds is no longer at '{target}' (it was renamed, or " +
                    $"another file was put there), so nothing can be put in its place.");
            }

            // A temporary file that a failed replacement could not remove must not become part of this one.
            DurableFile.TryDelete(temporary);
            Step(ReplacementStep.WriteCopy);
            copy = ExclusiveFile.Record(temporary, writeCopy);

            Step(ReplacementStep.MarkOld);
            old.MarkReplaced();
            marked = true;
            renaming = true;
            Step(ReplacementStep.Rename);

            // The last look before the rename, where the system finds a name's identity (Linux); a name swapped after
            // it, or where it cannot be looked at, is caught when the path is opened below.
            if (copy is not null && StoragePlatform.Current.IdentityOfName(temporary) is { } named && named != copy)
            {
                renaming = false;
                throw new IOException($"another file or link was put at the new file's temporary name '{temporary}' " +
                    $"after it was written (someone who can write the folder renamed it), so it is not put in place.");
            }

            StoragePlatform.Current.ReplaceFile(temporary, target);
        }
        catch (Exception) when (renaming && copy is not null && StoragePlatform.Current.IdentityOfName(target) == copy)
        {
            // The rename was carried out although it was reported failed (a network file system whose reply was lost):
            // the new file is at the path, so the replacement goes on as after a rename that succeeded.
        }
        catch (Exception exception)
        {
            if (exception is not (IOException or UnauthorizedAccessException))
            {
                Undo(old, marked, temporary);
                throw;
            }

            // "Unchanged" only when it was checked: after a failed rename the path must still hold the old file.
            if (renaming && !old.IsStillAtRealPath())
            {
                DurableFile.TryDelete(temporary);
                var lost = new ListMmfException(
                    path,
                    $"could not {what} the list: the rename of the new file failed ({Cause(exception)}), and the path " +
                        $"holds neither the old file nor the new one. This list refuses every later call; dispose it and " +
                            $"open the file again.",
                    exception);
                fault(lost);
                throw lost;
            }

            Undo(old, marked, temporary);
            throw new ListMmfException(path, $"could not {what} the list into a new file: {Cause(exception)} The file is unchanged.", exception);
        }

        // The rename is made durable before anything else can fail, so that what the caller is told holds.
        Exception? flushFailure = null;
        try
        {
            Step(ReplacementStep.FlushDirectory);
            DurableFile.FlushDirectoryOf(target, path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            flushFailure = exception;
        }

        TNew next;
        try
        {
            Step(ReplacementStep.OpenNew);
            next = openNew(target);
            if (copy is not null && storageOf(next).Identity is { } opened && opened != copy)
            {
                next.Dispose();
                throw new IOException($"the file now at the path is not the new file written (someone who can write " +
                    $"the folder renamed another file or a link over it), so the list does not move onto it.");
            }
        }
        catch (Exception exception)
        {
            var lost = new ListMmfException(
                path,
                $"could not {what} the list: the new file, holding {newContents}, is at the path, but it could not be " +
                    $"opened: {Cause(exception)} This list refuses every later call; dispose it and open the file again.",
                exception);
            fault(lost);
            throw lost;
        }

        adopt(next);
        if (flushFailure is not null)
        {
            throw new ListMmfException(path, $"the list now holds the new file, but its directory could not be made " +
                $"durable, so a power loss may bring the old file back: {Cause(flushFailure)}", flushFailure);
        }
    }

    /// <summary>Takes back what a replacement did before it failed with the old file still at the path.</summary>
    private static void Undo(IReplaceableStorage old, bool marked, string temporary)
    {
        if (marked)
        {
            old.ClearReplacedMark();
        }

        DurableFile.TryDelete(temporary);
    }

    /// <summary>
    /// Opens the file at <paramref name="path"/> for reading and reads its header. A file marked replaced was
    /// renamed over as it was opened (the path holds a newer file: it opens the path again), or is still at the path
    /// (its writer is between the mark and the rename, or died there): after <paramref name="attempts"/> it returns
    /// that file, whole, with its header's version as the current one. A path
    /// that a replacement has freed between its two renames (Windows without POSIX renames) is waited for.
    /// </summary>
    public static SafeFileHandle OpenForReading(string path, int attempts, out ListMmfHeader header, out long length, bool nameMustBeFile = false)
    {
        var spin = default(SpinWait);
        long freeUntil = Environment.TickCount64 + FreePathWaitMilliseconds;
        for (int attempt = 1; ; attempt++)
        {
            SafeFileHandle file;
            try
            {
                file = ListMmfStorage.OpenExisting(path, FileAccess.Read, FileOptions.None, nameMustBeFile);
            }
            catch (FileNotFoundException) when (attempts > 1 && Environment.TickCount64 < freeUntil
                && (StoragePlatform.Current.MayBeReplacing(StoragePlatform.Current.CanonicalPath(path)) || File.Exists(path)))
            {
                // Where a replacement is two renames (Windows without POSIX renames), the path is briefly free; the
                // replacement may also have finished since this open failed, and the file is there again.
                Thread.Sleep(1);
                attempt--;
                continue;
            }

            try
            {
                header = ListMmfHeader.ReadConsistent(file, path, out length);
            }
            catch
            {
                StoragePlatform.Current.Close(file);
                throw;
            }

            if (!header.IsReplaced)
            {
                return file;
            }

            if (attempt >= attempts)
            {
                header = header.Unmarked();
                return file;
            }

            StoragePlatform.Current.Close(file);
            spin.SpinOnce();
        }
    }

    /// <summary>Tells the test hook, if any, that <paramref name="step"/> comes next.</summary>
    internal static void Step(ReplacementStep step) => BeforeStep?.Invoke(step);

    private static string Cause(Exception exception) => exception is ListMmfException own ? own.Problem : exception.Message;
}
