using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Numerics;
using ListMmf.Sealed;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// A table's folder: created, opened, upgraded, sealed and unsealed a file at a time under the table's lock, and each
/// column's file opened in the form it is in, with the checks that every column holds every published row.
/// </summary>
public sealed partial class TimeSeriesTable
{
    /// <summary>
    /// Creates a table in <paramref name="directory"/> (created if missing) and opens it for writing. Column files
    /// that already exist there, such as the parallel files of ListMmf 1.x, become the table's
    /// columns if their types match; the manifest is written last, so a reader never opens a table half created.
    /// </summary>
    /// <exception cref="ListMmfException">The folder already holds a table, or a file could not be created.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfDataTypeException">An existing column file holds another type than the schema says.</exception>
    /// <exception cref="ListMmfFormatException">An existing column file is not valid, or holds fewer values than the
    /// time column has rows.</exception>
    public static TimeSeriesTable Create(string directory, TimeSeriesTableSchema schema, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        ArgumentNullException.ThrowIfNull(schema);
        string path = System.IO.Path.GetFullPath(directory);
        DurableFile.CreateDirectory(path);
        return new TimeSeriesTable(path, schema, FileAccess.ReadWrite, options, create: true);
    }

    /// <summary>
    /// Opens the table in <paramref name="directory"/>, described by its manifest: for writing by default (one
    /// writer; the open trims values a crashed writer left past the published rows, see <see cref="Repairs"/>), or
    /// read-only with <see cref="FileAccess.Read"/>. Never creates anything.
    /// </summary>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist (a table being created has no manifest yet).</exception>
    /// <exception cref="ListMmfFormatException">The manifest is not valid, names a column whose file is missing, or a column is damaged.</exception>
    /// <exception cref="ListMmfDataTypeException">A column file holds another type than the manifest says.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    public static TimeSeriesTable Open(string directory, FileAccess access = FileAccess.ReadWrite, ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        string path = System.IO.Path.GetFullPath(directory);

        // Checked before a writer takes the table's lock, so that opening a folder that is no table leaves nothing in it.
        if (!File.Exists(System.IO.Path.Combine(path, ManifestFileName)))
        {
            TableManifest.Read(System.IO.Path.Combine(path, ManifestFileName));
        }

        return new TimeSeriesTable(path, schema: null, CheckAccess(access), options, create: false);
    }

    /// <summary>
    /// Opens for reading a table whose schema and form the caller knows, as a catalog's index records its partitions:
    /// the manifest is not read, each column is opened in <paramref name="isSealed"/>'s form without looking at its
    /// file first (a column found in the other form is opened in that one), and each value column's file is opened
    /// at its first read (<see cref="OpensColumnsOnFirstUse"/>).
    /// </summary>
    internal static TimeSeriesTable OpenKnown(string path, TimeSeriesTableSchema schema, bool isSealed, ListMmfOptions? options) =>
        new(path, schema, FileAccess.Read, options, create: false, known: isSealed);

    /// <summary>
    /// Converts every version 1 column file of the table in <paramref name="directory"/> to version 2
    /// (<see cref="ListMmfFileInfo.Upgrade"/>), under the table's writer lock: one file at a time, each atomically;
    /// readers follow each file's replacement and read the table throughout.
    /// </summary>
    /// <returns>How many column files were converted (0 for a table whose files are all version 2).</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfException">A column file could not be converted; the message names it and says whether
    /// it is unchanged. The files converted before it stay converted.</exception>
    public static int Upgrade(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);
        return ReplaceEach(path, FilesOf(schema), ListMmfFileInfo.Upgrade);
    }

    /// <summary>
    /// Sets every column file of the table in <paramref name="directory"/> back to its last flush
    /// (<see cref="ListMmfFileInfo.RevertToLastFlush"/>), under the table's writer lock, for when the page cache was lost
    /// without a reboot. The table then holds the rows its time column had flushed; values a column holds past them are
    /// trimmed by the next writer (see <see cref="Repairs"/>).
    /// </summary>
    /// <returns>The rows the table holds afterwards.</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfException">A column file is version 1, which records no durable count.</exception>
    public static long RevertToLastFlush(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);
        using WriterLock tableLock = LockTable(path);
        long rows = ListMmfFileInfo.RevertToLastFlush(System.IO.Path.Combine(path, schema.Time.FileName));
        foreach (string file in FilesOf(schema).Skip(1))
        {
            ListMmfFileInfo.RevertToLastFlush(System.IO.Path.Combine(path, file));
        }

        return rows;
    }

    /// <summary>
    /// Replaces every column file of the table in <paramref name="directory"/> by its sealed form
    /// (<see cref="SealedListMmf.Seal"/>), under the table's writer lock: the value columns first, then the time column,
    /// one file at a time, each atomically. The table then opens read-only (<see cref="FileAccess.Read"/>) and answers
    /// every search and read as before; <see cref="TableColumn{T}.AsSpan(IndexRange)"/> gives way to
    /// <see cref="TableColumn{T}.CopyTo"/> and <see cref="TableColumn{T}.Read"/>. A table opens in any mix of the two
    /// forms, so readers read it throughout, and one whose seal was interrupted is sealed by calling this again.
    /// </summary>
    /// <remarks>Values a writer that stopped left past the published rows are trimmed first (see <see cref="Repairs"/>).</remarks>
    /// <returns>How many column files were sealed (0 for a table sealed already).</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    /// <exception cref="ListMmfException">A column file could not be sealed; the message names it and says whether it
    /// is unchanged. The files sealed before it stay sealed.</exception>
    public static int Seal(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);

        // A missing column file is left to the writer's open, which names the table as damaged.
        if (!ColumnsOf(schema).Select(column => System.IO.Path.Combine(path, column.FileName))
                .Any(file => File.Exists(file) && SealedListMmf.IsSealed(file)))
        {
            new TimeSeriesTable(path, schema: null, FileAccess.ReadWrite, options: null, create: false).Dispose();
        }

        // A text column's values stay as they are: the table's sealed form is the codes'.
        return ReplaceEach(path, [.. schema.Columns.Select(column => column.FileName), schema.Time.FileName], SealedListMmf.Seal);
    }

    /// <summary>
    /// Gives every sealed column file of the table in <paramref name="directory"/> its appendable form back
    /// (<see cref="SealedListMmf.Unseal"/>), under the table's writer lock, one file at a time, each atomically; a
    /// writer may open the table once this returns.
    /// </summary>
    /// <returns>How many column files were unsealed (0 for a table with no sealed column).</returns>
    /// <exception cref="FileNotFoundException">The folder or its manifest does not exist.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table open.</exception>
    /// <exception cref="ListMmfException">A column file could not be unsealed; the message names it and says whether
    /// it is unchanged. The files unsealed before it stay unsealed.</exception>
    public static int Unseal(string directory)
    {
        (string path, TimeSeriesTableSchema schema) = Folder(directory);
        return ReplaceEach(path, ColumnsOf(schema).Select(column => column.FileName), SealedListMmf.Unseal);
    }

    /// <summary>
    /// Opens the column files that <paramref name="schema"/> names in <paramref name="directory"/> as a table,
    /// without a manifest: for a folder of parallel files written by ListMmf 1.x. Nothing is
    /// created and no manifest is read or written; a writer trims value columns that ran ahead of the time column.
    /// </summary>
    /// <exception cref="FileNotFoundException">A column's file does not exist.</exception>
    /// <exception cref="ListMmfDataTypeException">A column file holds another type than the schema says.</exception>
    /// <exception cref="ListMmfFormatException">A column file is not valid, or holds fewer values than the time column has rows.</exception>
    /// <exception cref="ListMmfLockedException">Another writer has the table, or one of its column files, open.</exception>
    public static TimeSeriesTable Open(
        string directory,
        TimeSeriesTableSchema schema,
        FileAccess access = FileAccess.ReadWrite,
        ListMmfOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        ArgumentNullException.ThrowIfNull(schema);
        string path = System.IO.Path.GetFullPath(directory);
        if (!System.IO.Directory.Exists(path))
        {
            throw new FileNotFoundException($"'{path}': the table's folder does not exist.", path);
        }

        return new TimeSeriesTable(path, schema, CheckAccess(access), options, create: false);
    }

    /// <summary>
    /// Before Create opens anything: the files already in the folder are adopted as they are. A value file may not
    /// be missing, nor hold more values than the time column has rows, when the time column already holds rows;
    /// nothing is created or changed when one does.
    /// </summary>
    private void CheckAdoptedFiles()
    {
        string timePath = PathOf(Schema.Time);
        long rows = File.Exists(timePath) ? ListMmfFileInfo.Read(timePath).Count : 0;
        foreach (TableColumnInfo column in Schema.Columns)
        {
            string columnPath = PathOf(column);
            bool exists = File.Exists(columnPath);
            long stored = exists ? ListMmfFileInfo.Read(columnPath).Count : 0;
            if (rows > 0 && !exists)
            {
                throw new ListMmfFormatException(Path, $"the time column '{Schema.Time.Name}' " +
                    $"({Schema.Time.FileName}) already holds {rows:N0} rows, but column '{column.Name}' has no file " +
                        $"'{column.FileName}'; a table's columns hold a value for every row. Nothing was created.");
            }

            if (stored > 0 && column.EntriesFileName is { } entries && !File.Exists(System.IO.Path.Combine(Path, entries)))
            {
                throw new ListMmfFormatException(columnPath, $"text column '{column.Name}' holds {stored:N0} codes, " +
                    $"but its values' file '{entries}' does not exist, so no code can be read. Nothing was created.");
            }

            if (stored > rows)
            {
                throw new ListMmfFormatException(columnPath, $"column '{column.Name}' of table '{Path}' holds " +
                    $"{stored:N0} values, more than the {rows:N0} rows of the time column '{Schema.Time.Name}' " +
                        $"({Schema.Time.FileName}); Create adopts files as they are and does not trim them (check the " +
                            $"file names; TimeSeriesTable.Open with a schema trims values past the rows). Nothing was created or changed.");
            }
        }
    }

    /// <summary>
    /// Every value column must hold at least the published rows; a writer trims the values past them, which a
    /// writer that stopped before publishing left. A value column behind the time column is what a power loss leaves
    /// when the system wrote the time column's count back before the values (a <see cref="Flush"/> writes them in
    /// the other order, so no flushed row is among them): a writer lowers the rows to the shortest column and says so
    /// in <see cref="Repairs"/>; a reader, which cannot, is refused and told so. Checked for all columns before any is
    /// changed.
    /// </summary>
    private void CheckColumnLengths(bool trim)
    {
        long rows = _time.Count;
        TableColumn? shortest = null;
        foreach (TableColumn column in _values)
        {
            // A column opened on first use is checked then (TableColumn<T>.Items).
            if (column.IsOpen && column.StoredCount < Math.Min(rows, shortest?.StoredCount ?? long.MaxValue))
            {
                shortest = column;
            }
        }

        if (shortest is not null)
        {
            long stored = shortest.StoredCount;
            if (!trim)
            {
                throw ShortColumn(shortest, stored, rows);
            }

            _timeWriter!.Truncate(stored);
            _repairs.Add($"column '{shortest.Name}' held {stored:N0} values, fewer than the {rows:N0} rows its time " +
                $"column published (rows lost to a power loss, or a truncated file); the rows were lowered to {stored:N0}.");
            rows = stored;
        }

        if (trim)
        {
            DiscardPending(rows, _repairs);
        }
    }

    /// <summary>The refusal of a column that holds <paramref name="stored"/> values, fewer than the <paramref name="rows"/> published.</summary>
    internal ListMmfFormatException ShortColumn(TableColumn column, long stored, long rows) =>
        new(column.Path, $"column '{column.Name}' of table '{Path}' holds {stored:N0} values, fewer than the {rows:N0} " +
            "rows its time column publishes: rows that did not reach the disk before a power loss, or a column file " +
            $"truncated by another program. Nothing was changed; opening the table for writing once lowers the rows to {stored:N0} (see Repairs).");

    /// <summary>Opens one column's file, with errors that name the table and the column.</summary>
    internal T OpenPart<T>(TableColumnInfo column, Func<T> open)
    {
        string file = PathOf(column);
        try
        {
            return open();
        }
        catch (FileNotFoundException exception) when (_hasManifest)
        {
            throw new ListMmfFormatException(Path, $"the manifest names column '{column.Name}', stored in " +
                $"'{column.FileName}', which does not exist: the table is damaged. ({exception.Message})");
        }
        catch (FileNotFoundException exception)
        {
            throw new FileNotFoundException($"'{Path}': column '{column.Name}' has no file '{column.FileName}'.", file, exception);
        }
        catch (ListMmfLockedException exception)
        {
            throw new ListMmfLockedException(exception.FilePath, $"column '{column.Name}' of table '{Path}' is open " +
                $"for writing elsewhere: {exception.Problem}", exception);
        }
        catch (ListMmfDataTypeException exception)
        {
            throw new ListMmfDataTypeException(exception.FilePath, $"column '{column.Name}' of table '{Path}' is " +
                $"declared {column.DataType}, but {exception.Problem}");
        }
        catch (ListMmfFormatException exception)
        {
            throw new ListMmfFormatException(exception.FilePath, $"column '{column.Name}' of table '{Path}': {exception.Problem}");
        }
    }

    /// <summary>The table's writer lock, taken on its manifest.</summary>
    private static WriterLock LockTable(string path)
    {
        try
        {
            return WriterLock.Acquire(System.IO.Path.Combine(path, ManifestFileName));
        }
        catch (ListMmfLockedException exception)
        {
            throw new ListMmfLockedException(path, "another writer has the table open for writing; a table has one writer at a time.", exception);
        }
    }

    /// <summary>The full path of the table folder <paramref name="directory"/>, and its manifest's schema.</summary>
    private static (string Path, TimeSeriesTableSchema Schema) Folder(string directory)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        string path = System.IO.Path.GetFullPath(directory);
        return (path, TableManifest.Read(System.IO.Path.Combine(path, ManifestFileName)));
    }

    private static IEnumerable<TableColumnInfo> ColumnsOf(TimeSeriesTableSchema schema) => [schema.Time, .. schema.Columns];

    /// <summary>Every file the table's columns keep: each column's, the time column first, then the text columns' values.</summary>
    private static IEnumerable<string> FilesOf(TimeSeriesTableSchema schema) =>
        ColumnsOf(schema).Select(column => column.FileName)
            .Concat(schema.Columns.Select(column => column.EntriesFileName).OfType<string>());

    /// <summary>
    /// Under the table's writer lock, calls <paramref name="replace"/> (a file replacement that returns whether it
    /// changed the file) for each of <paramref name="files"/>, in the table's folder, in order; returns how many it changed.
    /// </summary>
    private static int ReplaceEach(string path, IEnumerable<string> files, Func<string, bool> replace)
    {
        using WriterLock tableLock = LockTable(path);
        int replaced = 0;
        foreach (string file in files)
        {
            replaced += replace(System.IO.Path.Combine(path, file)) ? 1 : 0;
        }

        return replaced;
    }

    /// <summary>
    /// Whether the column <paramref name="column"/>, whose file is at <paramref name="path"/>, opens sealed: its file is
    /// in the sealed form, which only a reader opens.
    /// </summary>
    /// <exception cref="ListMmfException">The file is sealed and <paramref name="access"/> asks for writing.</exception>
    internal bool OpensSealed(TableColumnInfo column, string path, FileAccess access)
    {
        if (!File.Exists(path) || !SealedListMmf.IsSealed(path))
        {
            return false;
        }

        return access == FileAccess.Read ? true : throw new ListMmfException(path, $"column '{column.Name}' of table " +
            $"'{Path}' is sealed (compressed and read-only): open the table with FileAccess.Read, or unseal it first " +
            "(TimeSeriesTable.Unseal, listmmf unseal).");
    }

    /// <summary>The time column, appendable (<paramref name="appendable"/>) or sealed, as the table's series and its column.</summary>
    private (ITimeColumn Series, TableColumn Column) OpenTime<TKey, TTimeKey>(
        TableColumnInfo info, FileAccess access, ListMmfOptions options, Func<TimeSeriesMmf<TKey>> appendable)
        where TKey : unmanaged, IComparisonOperators<TKey, TKey, bool>
        where TTimeKey : ITimeKey<TKey>
    {
        string path = PathOf(info);
        return EitherForm.Open<(ITimeColumn, TableColumn)>(
            () => OpensSealed(info, path, access),
            () =>
            {
                TimeSeriesMmf<TKey> series = appendable();
                return (series, new TableColumn<TKey>(this, info, series.Keys.List, isTime: true));
            },
            () =>
            {
                var keys = new SealedTimeSeries<TKey, TTimeKey>(new SealedListMmf<TKey>(path, options), Schema.Order);
                return (keys, new TableColumn<TKey>(this, info, keys.Keys, isTime: true));
            },
            ExpectSealed);
    }
}
