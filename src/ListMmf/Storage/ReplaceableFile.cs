using System;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// The one owner of a list's file across replacements: the file mapped now, the one left last (still mapped for
/// spans taken from it, where the list keeps it), how many times the list moved, and the failure that left it
/// unusable. The writer replaces the file through it (<see cref="Replace"/>: the steps are
/// <see cref="FileReplacement"/>'s, acting on the file the writer holds, by identity); a reader follows a
/// replacement through it (<see cref="TryFollow"/>). The list keeps only its pointers into <see cref="Current"/>
/// and rereads them after either call.
/// </summary>
/// <typeparam name="TFile">What the list holds a file as: its <see cref="ListMmfStorage"/>, or an integer list's store.</typeparam>
internal sealed class ReplaceableFile<TFile> : IDisposable
    where TFile : class, IDisposable
{
    private readonly string _path;
    private readonly Func<TFile, ListMmfStorage> _storageOf;
    private readonly bool _keepsPrevious;

    /// <summary>When a reader whose file is marked replaced looks at the path.</summary>
    private ReplacementCheck _check;

    /// <summary>The sealed file at the path while a reader stays on the file that was sealed; else null.</summary>
    private SealedFormWatch? _sealedForm;

    /// <param name="path">The list's path, for messages and for a reader to open again.</param>
    /// <param name="current">The file the list opened.</param>
    /// <param name="storageOf">The storage under a file.</param>
    /// <param name="keepsPrevious">Whether the file left stays mapped until the next move (for spans the list handed
    /// out), rather than closing at once.</param>
    public ReplaceableFile(string path, TFile current, Func<TFile, ListMmfStorage> storageOf, bool keepsPrevious)
    {
        _path = path;
        Current = current;
        _storageOf = storageOf;
        _keepsPrevious = keepsPrevious;
    }

    /// <summary>The file the list maps now.</summary>
    public TFile Current { get; private set; }

    /// <summary>The file the list left last, kept mapped where the list keeps it; closed at the next move.</summary>
    public TFile? Previous { get; private set; }

    /// <summary>How many times the list moved to a new file (its own replacement, or a reader following one).</summary>
    public int Generation { get; private set; }

    /// <summary>Set when the list can no longer go on (the new file is at the path but could not be opened, or neither
    /// file is): every later call of the list throws it.</summary>
    public ListMmfException? Failure { get; private set; }

    /// <summary>
    /// Replaces the file the writer holds by the one <paramref name="writeCopy"/> writes at the temporary path it is
    /// given, opened by <paramref name="openNew"/> once renamed; the list moves to it and the writer's lock goes
    /// with it. On a failure after which the list cannot go on, <see cref="Failure"/> is set before the exception
    /// is thrown.
    /// </summary>
    /// <exception cref="ListMmfException">A step failed; the message says whether the file is unchanged, the new file
    /// is in place, or the list refuses every later call.</exception>
    public void Replace(string what, string newContents, Action<string> writeCopy, Func<string, TFile> openNew) =>
        FileReplacement.Replace(_path, _storageOf(Current), what, newContents, writeCopy, openNew, next => _storageOf(next), MoveTo,
            failure => Failure = failure);

    /// <summary>
    /// A reader whose file is marked replaced: when it is time to look, opens the path with
    /// <paramref name="open"/> (given how many opens to make while the file there is marked) and moves to the file
    /// there, unless it is this same file (its writer has not renamed yet, or died first: it is still the list's),
    /// in which case it looks again later, so that such a file costs no system call per read, unless
    /// <paramref name="evenIfPostponed"/> (a read past the items the list has). Where the system
    /// cannot tell files apart (macOS here), a marked file at the path is taken to be this one. Where the path holds
    /// the file's sealed form, the list stays on its file, which holds the same items, until an unseal marks the
    /// sealed file (<see cref="SealedFormWatch"/>); it then moves to the appendable file the unseal put there.
    /// </summary>
    /// <returns>Whether the list moved.</returns>
    public bool TryFollow(Func<int, TFile> open, bool evenIfPostponed = false)
    {
        if (_sealedForm is { IsUnsealing: false } || !_check.ShouldLook(evenIfPostponed))
        {
            return false;
        }

        TFile next;
        try
        {
            next = open(_check.Attempts);
        }
        catch (FileNotFoundException)
        {
            // A writer killed between its two renames (Windows without POSIX renames) left the path free until the
            // next writer opens; this file is still whole.
            _check.Postpone();
            return false;
        }
        catch (ListMmfDataTypeException)
        {
            // An IntegerListMmf widened the file: this list reads the old file, at its width, from now on.
            _check.Stop();
            return false;
        }
        catch (ListMmfFormatException) when (SealedFormWatch.TryOpen(_path) is { } sealedForm)
        {
            // A seal (or an unseal that has not renamed yet): its sealed file stays at the path until an unseal marks it.
            _sealedForm?.Dispose();
            _sealedForm = sealedForm;
            _check.Postpone();
            return false;
        }

        ListMmfStorage nextStorage = _storageOf(next);
        if (nextStorage.IsMarkedReplaced && nextStorage.IsSameFileAs(_storageOf(Current)))
        {
            next.Dispose();
            _check.Postpone();
            return false;
        }

        _sealedForm?.Dispose();
        _sealedForm = null;
        _check.Reset();
        MoveTo(next);
        return true;
    }

    /// <summary>Closes the files, and gives back the writer's lock where the storage holds it.</summary>
    public void Dispose()
    {
        Current.Dispose();
        Previous?.Dispose();
        _sealedForm?.Dispose();
    }

    /// <summary>
    /// Makes <paramref name="next"/> the current file; the one left is kept (and the one left before it closed, so
    /// that old files give their disk space back) or closed at once. A writer's lock goes with it.
    /// </summary>
    private void MoveTo(TFile next)
    {
        TFile left = Current;
        _storageOf(left).HandLockTo(_storageOf(next));
        Current = next;
        Generation++;
        if (_keepsPrevious)
        {
            TFile? closing = Previous;
            Previous = left;
            closing?.Dispose();
        }
        else
        {
            left.Dispose();
        }
    }
}
