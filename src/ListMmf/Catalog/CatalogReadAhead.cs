using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Storage;
using Microsoft.Win32.SafeHandles;

namespace ListMmf;

/// <summary>
/// Asks the system to read the column files of many partitions about to be opened together (a state at T, the
/// partitions a run opens on every core) all at once, where the first of them is not in the page cache: each open then
/// finds its pages read or on their way, rather than waiting for its own few reads in turn, and the disk serves the
/// reads of every partition side by side. A column file whose rows fit in <see cref="WholeFileBytes"/> (a day of
/// one instrument) is asked for whole, a larger one its first pages (its header). A catalog opened cold also asks for
/// a partition opened alone (<see cref="StartAlone"/>), whose files are then read side by side. Best effort: a file
/// that cannot be opened here is left to the open, which reports it.
/// </summary>
internal static class CatalogReadAhead
{
    /// <summary>
    /// The fewest partitions read ahead together: where fewer open, the first one's cold test would cost a warm batch
    /// more than it saves a cold one (a partition opened alone is read ahead only in a catalog opened cold).
    /// </summary>
    public const int FewestPartitions = 16;

    /// <summary>The most bytes of one column file asked for; past them, a first search reads a few scattered pages.</summary>
    private const long WholeFileBytes = 64 * 1024;

    /// <summary>The bytes asked for of a column file larger than <see cref="WholeFileBytes"/>: its header and what follows.</summary>
    private const long HeaderBytes = 8 * 1024;

    /// <summary>A version 2 column file's header page, before its items.</summary>
    private const long ItemsOffset = 4096;

    /// <summary>
    /// Starts reading the time column and <paramref name="columns"/> of each of <paramref name="closed"/>, partitions
    /// no table is open on, where there are at least <see cref="FewestPartitions"/> of them and the first one's time
    /// column is not in the page cache; returns whether it did.
    /// </summary>
    public static bool Start(
        IReadOnlyList<CatalogPartition> closed,
        Func<string, TimeSeriesTableSchema> schemaOf,
        IReadOnlyCollection<string> columns) =>
        Start(closed, schemaOf, columns, FewestPartitions);

    private static bool Start(
        IReadOnlyList<CatalogPartition> closed,
        Func<string, TimeSeriesTableSchema> schemaOf,
        IReadOnlyCollection<string> columns,
        int fewest)
    {
        if (!StoragePlatform.Current.StartsReading || closed.Count < fewest)
        {
            return false;
        }

        for (int i = 0; i < closed.Count; i++)
        {
            CatalogPartition partition = closed[i];
            TimeSeriesTableSchema schema = schemaOf(partition.Kind);
            string time = Path.Combine(partition.Path, schema.Time.FileName);
            if (i > 0)
            {
                Start(time, BytesOf(partition, schema.Time));
            }
            else if (!StartIfCold(time, BytesOf(partition, schema.Time)))
            {
                // The first partition is cached: the others most likely too, and testing each would cost a warm batch.
                return false;
            }

            foreach (TableColumnInfo column in schema.Columns)
            {
                if (columns.Contains(column.Name, StringComparer.OrdinalIgnoreCase))
                {
                    Start(Path.Combine(partition.Path, column.FileName), BytesOf(partition, column));
                }
            }
        }

        return true;
    }

    /// <summary>
    /// Where the first page of the file at <paramref name="path"/> is not in the page cache (or the system cannot
    /// tell), starts reading its first <paramref name="bytes"/> and returns true, opening it once for both; false
    /// where it is cached or cannot be opened.
    /// </summary>
    private static bool StartIfCold(string path, long bytes)
    {
        try
        {
            using SafeFileHandle? file = SideFile.OpenRead(path);
            if (file is null)
            {
                return true;
            }

            if (StoragePlatform.Current.IsCached(file, 0) == true)
            {
                return false;
            }

            if (bytes > 0)
            {
                StoragePlatform.Current.StartReading(file, 0, bytes);
            }

            return true;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
        {
            return false;
        }
    }

    /// <summary>The bytes of <paramref name="column"/>'s file in <paramref name="partition"/> that its open and first search read.</summary>
    private static long BytesOf(CatalogPartition partition, TableColumnInfo column)
    {
        // A struct column's width is its own: its header is asked for, as for a large file.
        int width = DataTypeInfo.Find(column.DataType)?.Size ?? 0;
        long bytes = width > 0 ? ItemsOffset + (partition.RowCount * width) : HeaderBytes;
        return bytes <= WholeFileBytes ? bytes : HeaderBytes;
    }

    /// <summary>
    /// Starts reading the time column and <paramref name="columns"/> of <paramref name="partition"/>, about to be
    /// opened alone, where its time column is not in the page cache; returns whether it did. Its files are then read
    /// side by side rather than each when its open reaches it.
    /// </summary>
    public static bool StartAlone(
        CatalogPartition partition,
        Func<string, TimeSeriesTableSchema> schemaOf,
        IReadOnlyCollection<string> columns) =>
        Start([partition], schemaOf, columns, fewest: 1);

    /// <summary>
    /// Starts reading the first pages of the files a reader's open of a catalog reads after its manifest (at
    /// <paramref name="manifest"/>), where the manifest is not in the page cache: <paramref name="files"/>, each with
    /// the bytes its open reads first. Returns whether it did: whether the catalog was opened cold.
    /// </summary>
    public static bool StartOpen(string manifest, params ReadOnlySpan<(string Path, long Bytes)> files)
    {
        if (!StoragePlatform.Current.StartsReading || !StartIfCold(manifest, bytes: 0))
        {
            return false;
        }

        foreach ((string path, long bytes) in files)
        {
            Start(path, bytes);
        }

        return true;
    }

    private static void Start(string path, long bytes)
    {
        try
        {
            using SafeFileHandle? file = SideFile.OpenRead(path);
            if (file is not null)
            {
                StoragePlatform.Current.StartReading(file, 0, bytes);
            }
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or ListMmfException)
        {
            // The open that follows meets the same file and says what is wrong with it.
        }
    }
}
