using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.IO;
using System.Linq;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A catalog's named snapshots: what its writer had durably recorded at an instant, replayed exactly later while the
/// writer goes on appending, so that a backtest can be run again on the same rows.
/// </summary>
public sealed partial class TimeSeriesCatalog
{
    /// <summary>
    /// Takes the snapshot <paramref name="name"/> of every row the writer has durably recorded (its last
    /// <see cref="Flush()"/>'s), in any process, writer or reader (the writer flushes first): a small file in the
    /// catalog's <c>snapshots</c> folder, durable when this returns, as is the part of the index it names.
    /// <see cref="OpenSnapshot"/> then reads the catalog as it was, whatever the writer appends, rolls or seals since:
    /// a catalog's recorded rows only grow, so a snapshot costs no copy.
    /// </summary>
    /// <returns>The snapshot taken.</returns>
    /// <exception cref="ArgumentException">The name is no portable file name.</exception>
    /// <exception cref="ListMmfException">The catalog already has a snapshot of that name (a snapshot never changes),
    /// or the file could not be written.</exception>
    /// <exception cref="InvalidOperationException">This catalog was opened at a snapshot.</exception>
    /// <exception cref="NotSupportedException">A reader on Windows, where making the index durable needs write access:
    /// take the snapshot from the writer's process.</exception>
    /// <remarks>A reader makes the index durable through its read-only handle, which Linux and macOS allow.</remarks>
    public CatalogSnapshot CreateSnapshot(string name)
    {
        ThrowIfDisposed();
        ThrowIfNoSnapshotName(name);
        if (Snapshot is not null)
        {
            throw new InvalidOperationException($"The catalog '{Path}' was opened at its snapshot '{Snapshot.Name}'; take a " +
                "snapshot of the catalog itself (TimeSeriesCatalog.Open).");
        }

        string path = CatalogSnapshot.PathOf(Path, name);
        if (File.Exists(path))
        {
            ThrowTaken(path, name, inner: null);
        }

        if (IsWritable)
        {
            // The writer's own appends are in the snapshot once recorded and durable.
            Flush();
        }
        else if (!StoragePlatform.Current.ReadersCanFlush)
        {
            throw new NotSupportedException($"A reader of catalog '{Path}' cannot take a snapshot on this system: it cannot " +
                "make the index's lines it would name durable (a barrier needs write access here). Take the snapshot from " +
                "the writer's process.");
        }

        _index.ReadNew();
        long lines = _index.SyncedLines();
        var snapshot = new CatalogSnapshot(name, DateTime.UtcNow, lines, _index.InstrumentsBefore(lines));
        DurableFile.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
        try
        {
            // Readers in other processes may take snapshots at once, and no lock guards the name: the first wins.
            DurableFile.Create(path, snapshot.ToJson(), static (file, bytes) => file.Write(bytes), unlocked: true);
        }
        catch (ListMmfException exception) when (exception.InnerException is IOException refused && StoragePlatform.Current.MeansNameTaken(refused))
        {
            ThrowTaken(path, name, exception);
        }

        return snapshot;
    }

    [DoesNotReturn]
    private static void ThrowTaken(string path, string name, Exception? inner)
    {
        string problem = $"the catalog already has a snapshot '{name}', and a snapshot never changes; choose another name.";
        throw inner is null ? new ListMmfException(path, problem) : new ListMmfException(path, problem, inner);
    }

    /// <summary>The catalog's snapshots, in the order of their names.</summary>
    /// <exception cref="ListMmfFormatException">A snapshot's file is not valid.</exception>
    public IReadOnlyList<CatalogSnapshot> Snapshots()
    {
        ThrowIfDisposed();
        string folder = System.IO.Path.Combine(Path, CatalogSnapshot.FolderName);
        return !Directory.Exists(folder)
            ? []
            : Directory.EnumerateFiles(folder, "*.json")
                .Select(file => System.IO.Path.GetFileNameWithoutExtension(file))
                .Order(StringComparer.Ordinal)
                .Select(name => CatalogSnapshot.Read(CatalogSnapshot.PathOf(Path, name), name))
                .ToArray();
    }

    /// <summary>
    /// Opens the catalog in <paramref name="directory"/> read-only at its snapshot <paramref name="name"/>: its
    /// partitions, replays, states and bars are those of the rows recorded when the snapshot was taken, and its
    /// instruments those it held rows of, whatever the writer recorded since.
    /// </summary>
    /// <exception cref="FileNotFoundException">The folder holds no catalog, or the catalog no such snapshot.</exception>
    /// <exception cref="ListMmfFormatException">The snapshot's file is not valid, or the index holds fewer lines than it
    /// took.</exception>
    public static TimeSeriesCatalog OpenSnapshot(string directory, string name, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        ThrowIfNoSnapshotName(name);
        string path = System.IO.Path.GetFullPath(directory);
        if (!File.Exists(System.IO.Path.Combine(path, ManifestFileName)))
        {
            // As Open says it: the folder is no catalog, before any word about snapshots.
            _ = CatalogManifest.Read(System.IO.Path.Combine(path, ManifestFileName));
        }

        CatalogSnapshot snapshot = CatalogSnapshot.Read(CatalogSnapshot.PathOf(path, name), name);
        return new TimeSeriesCatalog(path, schema: null, FileAccess.Read, options, snapshot);
    }

    private static void ThrowIfNoSnapshotName(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        if (PortableFileName.ProblemWith(name) is { } problem)
        {
            throw new ArgumentException($"The snapshot name '{name}' {problem}; it names a file of the catalog.", nameof(name));
        }
    }
}
