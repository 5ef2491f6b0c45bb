using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Storage;

namespace ListMmf;

/// <summary>
/// The columns of a <see cref="TimeSeriesTable"/>: one time column (Unix seconds or DateTime ticks) and any number
/// of value columns of the standard numeric types, each stored in a file of its own, and of text
/// (<see cref="AddText"/>), each stored as codes in one file and its distinct values in another.
/// </summary>
/// <example>
/// <code>
/// var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual)
///     .Add&lt;double&gt;("price")
///     .Add&lt;int&gt;("size");
/// </code>
/// A folder of parallel files written by ListMmf 1.x is described by naming its files:
/// <code>
/// var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.AscendingOrEqual, "ES.Timestamps.bt")
///     .Add&lt;double&gt;("price", "ES.Prices.bt");
/// </code>
/// </example>
public sealed class TimeSeriesTableSchema
{
    /// <summary>The extension of the column files whose names the schema chooses.</summary>
    public const string DefaultFileExtension = ".mmf";

    private readonly List<TableColumnInfo> _columns = [];
    private readonly Dictionary<string, TableColumnInfo> _byName = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<string, TableColumnInfo> _byFileName = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>Describes a table whose time column is <paramref name="timeColumn"/>.</summary>
    /// <param name="timeColumn">The time column's name.</param>
    /// <param name="timeType"><see cref="DataType.UnixSeconds"/> (Int32 seconds) or <see cref="DataType.DateTime"/> (Int64 ticks).</param>
    /// <param name="order">The order the times keep.</param>
    /// <param name="fileName">The time column's file; the name plus <see cref="DefaultFileExtension"/> when null.</param>
    /// <exception cref="ArgumentException">The name or file name is not a valid file name, or the type is not a time type.</exception>
    public TimeSeriesTableSchema(
        string timeColumn,
        DataType timeType = DataType.UnixSeconds,
        TimeSeriesOrder order = TimeSeriesOrder.AscendingOrEqual,
        string? fileName = null)
    {
        if (DataTypeInfo.Find(timeType) is not { IsTime: true })
        {
            throw new ArgumentException($"The time column '{timeColumn}' must be UnixSeconds or DateTime, not {timeType}.", nameof(timeType));
        }

        if (!Enum.IsDefined(order))
        {
            throw new ArgumentOutOfRangeException(nameof(order), order, "Unknown order.");
        }

        Time = Describe(timeColumn, timeType, fileName);
        Order = order;
        _byName.Add(Time.Name, Time);
        _byFileName.Add(Time.FileName, Time);
    }

    /// <summary>The time column.</summary>
    public TableColumnInfo Time { get; }

    /// <summary>The order the time column keeps.</summary>
    public TimeSeriesOrder Order { get; }

    /// <summary>
    /// Whether the times are UTC, recorded in the table's manifest: the table then returns
    /// <see cref="DateTimeKind.Utc"/> times, converts <see cref="DateTimeKind.Local"/> ones, takes
    /// <see cref="DateTimeOffset"/>s and refuses <see cref="DateTimeKind.Unspecified"/> ones; otherwise it refuses
    /// Local times and DateTimeOffsets (see <see cref="ListMmfOptions.TimesAreUtc"/>).
    /// </summary>
    public bool TimesAreUtc { get; init; }

    /// <summary>The value columns, in the order they were added.</summary>
    public IReadOnlyList<TableColumnInfo> Columns => _columns;

    /// <summary>
    /// Adds a value column of <typeparamref name="T"/>, a number type (<see cref="DataTypeInfo.IsNumber"/>), or
    /// <see cref="DateTime"/> for a column of <see cref="DataType.DateTime"/> ticks, read and written as DateTimes
    /// through <c>Column&lt;DateTime&gt;</c> and as ticks through <c>Column&lt;long&gt;</c>.
    /// </summary>
    /// <exception cref="ArgumentException">The name or file name is invalid or already used, or
    /// <typeparamref name="T"/> is not a number type.</exception>
    public TimeSeriesTableSchema Add<T>(string name, string? fileName = null)
        where T : unmanaged => Add(name, typeof(T) == typeof(DateTime) ? DataType.DateTime : DataTypeInfo.Of<T>().DataType, fileName);

    /// <summary>Adds a value column stored with <paramref name="dataType"/>, a number type (<see cref="DataTypeInfo.IsNumber"/>).</summary>
    /// <exception cref="ArgumentException">The name or file name is invalid or already used, or the type is not a number type.</exception>
    public TimeSeriesTableSchema Add(string name, DataType dataType, string? fileName = null)
    {
        if (DataTypeInfo.Find(dataType) is not { IsNumber: true })
        {
            throw new ArgumentException($"Column '{name}': {dataType} cannot be a table column; the columns hold " +
                $"{string.Join(", ", DataTypeInfo.All.Where(type => type.IsNumber))}.", nameof(dataType));
        }

        return AddColumn(Describe(name, dataType, fileName));
    }

    /// <summary>
    /// Adds a text column (<see cref="TextColumn"/>): each row stores a code, an unsigned integer of
    /// <paramref name="codeType"/>, into a file of the column's distinct values, which readers follow as the writer
    /// adds new ones. For values that repeat (symbols, exchanges, sale conditions): a code of
    /// <see cref="DataType.Byte"/> takes one byte a row and tells 256 distinct values apart,
    /// <see cref="DataType.UInt16"/> 65,536, <see cref="DataType.UInt32"/> up to <see cref="int.MaxValue"/>.
    /// </summary>
    /// <param name="name">The column's name.</param>
    /// <param name="codeType"><see cref="DataType.Byte"/>, <see cref="DataType.UInt16"/> or <see cref="DataType.UInt32"/>.</param>
    /// <param name="fileName">The codes' file; the name plus <see cref="DefaultFileExtension"/> when null.</param>
    /// <param name="entriesFileName">The distinct values' file; the name plus <see cref="TextEntriesExtension"/> when null.</param>
    /// <exception cref="ArgumentException">A name or file name is invalid or already used, or the code type is not
    /// one of the three.</exception>
    public TimeSeriesTableSchema AddText(
        string name,
        DataType codeType = DataType.UInt16,
        string? fileName = null,
        string? entriesFileName = null)
    {
        if (codeType is not (DataType.Byte or DataType.UInt16 or DataType.UInt32))
        {
            throw new ArgumentException($"Text column '{name}': its codes are Byte, UInt16 or UInt32, not {codeType}.", nameof(codeType));
        }

        TableColumnInfo column = Describe(name, codeType, fileName);
        entriesFileName ??= name + TextEntriesExtension;
        CheckOwnFileName(name, entriesFileName, nameof(entriesFileName));
        if (string.Equals(entriesFileName, column.FileName, StringComparison.OrdinalIgnoreCase))
        {
            throw new ArgumentException($"Text column '{name}': its codes and its distinct values cannot share the " +
                $"file '{entriesFileName}'.", nameof(entriesFileName));
        }

        CheckFileUnused(name, entriesFileName, nameof(entriesFileName));
        TableColumnInfo text = column with { EntriesFileName = entriesFileName };
        AddColumn(text);
        _byFileName.Add(entriesFileName, text);
        return this;
    }

    /// <summary>The extension of the files of a text column's distinct values whose names the schema chooses.</summary>
    public const string TextEntriesExtension = ".text.mmf";

    private TimeSeriesTableSchema AddColumn(TableColumnInfo column)
    {
        // Looked up rather than compared with each column in turn, which is quadratic in a manifest of many columns.
        if (_byName.TryGetValue(column.Name, out TableColumnInfo? sameName))
        {
            throw Refused($"Column '{column.Name}': the table already has a column named '{sameName.Name}' " +
                $"(names are compared ignoring case).", "name");
        }

        CheckFileUnused(column.Name, column.FileName, paramName: "fileName");
        _columns.Add(column);
        _byName.Add(column.Name, column);
        _byFileName.Add(column.FileName, column);
        return this;
    }

    private static TableColumnInfo Describe(string name, DataType dataType, string? fileName)
    {
        CheckFileName(name, "name", nameof(name));
        fileName ??= name + DefaultFileExtension;
        CheckOwnFileName(name, fileName, nameof(fileName));
        return new TableColumnInfo(name, dataType, fileName);
    }

    /// <summary>A valid file name that is none of the names the table uses for its own files.</summary>
    private static void CheckOwnFileName(string name, string fileName, string paramName)
    {
        CheckFileName(fileName, "file name", paramName);
        if (string.Equals(fileName, TimeSeriesTable.ManifestFileName, StringComparison.OrdinalIgnoreCase)
            || fileName.EndsWith(WriterLock.SidecarSuffix, StringComparison.OrdinalIgnoreCase)
            || fileName.EndsWith(DurableFile.TemporaryExtension, StringComparison.OrdinalIgnoreCase))
        {
            throw new ArgumentException($"Column '{name}': '{fileName}' is a name the table uses for its own files.", paramName);
        }
    }

    private void CheckFileUnused(string name, string fileName, string paramName)
    {
        if (_byFileName.TryGetValue(fileName, out TableColumnInfo? sameFile))
        {
            throw new ArgumentException($"Column '{name}': its file '{fileName}' is already a file of " +
                $"column '{sameFile.Name}' (file names are compared ignoring case).", paramName);
        }
    }

    /// <summary>A refusal of the argument <paramref name="paramName"/> of the public method that called the private one.</summary>
    private static ArgumentException Refused(string message, string paramName) => new(message, paramName);

    /// <summary>A name that is a plain file name on every system the library runs on (<see cref="PortableFileName"/>).</summary>
    private static void CheckFileName(string value, string what, string paramName)
    {
        ArgumentNullException.ThrowIfNull(value, paramName);
        string? problem = PortableFileName.ProblemWith(value);
        if (problem is not null)
        {
            throw new ArgumentException($"The column {what} '{value}' {problem}.", paramName);
        }
    }
}
