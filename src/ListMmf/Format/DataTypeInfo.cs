using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.Linq;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf;

/// <summary>
/// What the items of a <see cref="DataType"/> are: their size, their kind and the .NET type they are stored as. This
/// is the one description of each data type: the lists, the tables, the file descriptions, the tool and the Arrow
/// package read it, and a converter written as an <see cref="IDataTypeVisitor{TResult}"/> runs for every number type.
/// </summary>
/// <example>
/// <code>
/// DataTypeInfo type = DataTypeInfo.Of(DataType.UnixSeconds);
/// // type.Size == 4, type.Kind == DataTypeKind.UnixSeconds, type.StorageType == typeof(int)
/// </code>
/// </example>
public abstract class DataTypeInfo
{
    /// <summary>Indexed by code: a data type added here is known to every part of the library that reads <see cref="All"/>.</summary>
    private static readonly DataTypeInfo[] ByCode =
    [
        new Opaque(DataType.AnyStruct, DataTypeKind.Struct, size: 0),
        new Opaque(DataType.Bit, DataTypeKind.Bits, size: 0),
        new Number<sbyte>(DataType.SByte, DataTypeKind.SignedInteger, "sbyte"),
        new Number<byte>(DataType.Byte, DataTypeKind.UnsignedInteger, "byte"),
        new Number<short>(DataType.Int16, DataTypeKind.SignedInteger, "short"),
        new Number<ushort>(DataType.UInt16, DataTypeKind.UnsignedInteger, "ushort"),
        new Number<int>(DataType.Int32, DataTypeKind.SignedInteger, "int"),
        new Number<uint>(DataType.UInt32, DataTypeKind.UnsignedInteger, "uint"),
        new Number<long>(DataType.Int64, DataTypeKind.SignedInteger, "long"),
        new Number<ulong>(DataType.UInt64, DataTypeKind.UnsignedInteger, "ulong"),
        new Number<float>(DataType.Single, DataTypeKind.FloatingPoint, "float"),
        new Number<double>(DataType.Double, DataTypeKind.FloatingPoint, "double"),
        new Number<long>(DataType.DateTime, DataTypeKind.DateTimeTicks, keyword: null),
        new Number<int>(DataType.UnixSeconds, DataTypeKind.UnixSeconds, keyword: null),
        new Opaque(DataType.Int24, DataTypeKind.SignedInteger, size: 3),
        new Opaque(DataType.Int40, DataTypeKind.SignedInteger, size: 5),
        new Opaque(DataType.Int48, DataTypeKind.SignedInteger, size: 6),
        new Opaque(DataType.Int56, DataTypeKind.SignedInteger, size: 7),
        new Opaque(DataType.UInt24, DataTypeKind.UnsignedInteger, size: 3),
        new Opaque(DataType.UInt40, DataTypeKind.UnsignedInteger, size: 5),
        new Opaque(DataType.UInt48, DataTypeKind.UnsignedInteger, size: 6),
        new Opaque(DataType.UInt56, DataTypeKind.UnsignedInteger, size: 7),
    ];

    /// <summary>The table as callers see it: a cast back to an array cannot change it.</summary>
    private static readonly ReadOnlyCollection<DataTypeInfo> ReadOnlyAll = Array.AsReadOnly(ByCode);

    private protected DataTypeInfo(DataType dataType, DataTypeKind kind, int size, Type? storageType, string? keyword)
    {
        DataType = dataType;
        Kind = kind;
        Size = size;
        StorageType = storageType;
        Keyword = keyword;
    }

    /// <summary>Every data type, in the order of their codes.</summary>
    public static IReadOnlyList<DataTypeInfo> All => ReadOnlyAll;

    /// <summary>The code written in the header of a file of these items.</summary>
    public DataType DataType { get; }

    /// <summary>The code's name, as the table manifest, the tool and the Arrow field metadata write it.</summary>
    public string Name => DataType.ToString();

    /// <summary>What the items are.</summary>
    public DataTypeKind Kind { get; }

    /// <summary>Bytes per item, or 0 where the code does not say (<see cref="DataTypeKind.Struct"/>, <see cref="DataTypeKind.Bits"/>).</summary>
    public int Size { get; }

    /// <summary>
    /// The .NET number type the items are stored as (<see cref="int"/> for Unix seconds), or null where none is:
    /// structs, bits and the 3- to 7-byte integers.
    /// </summary>
    public Type? StorageType { get; }

    /// <summary>Whether the items are a .NET number type: the types a table column holds and <see cref="Accept"/> visits.</summary>
    public bool IsNumber => StorageType is not null;

    /// <summary>Whether the items are times (<see cref="DataTypeKind.UnixSeconds"/> or <see cref="DataTypeKind.DateTimeTicks"/>).</summary>
    public bool IsTime => Kind is DataTypeKind.UnixSeconds or DataTypeKind.DateTimeTicks;

    /// <summary>
    /// The C# keyword of a number type that is not a time (<c>"double"</c>, <c>"int"</c>), as the tool's columns
    /// name it; otherwise null.
    /// </summary>
    internal string? Keyword { get; }

    /// <summary>The description of <paramref name="dataType"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The code is not one this library knows.</exception>
    public static DataTypeInfo Of(DataType dataType) =>
        Find(dataType)
            ?? throw new ArgumentOutOfRangeException(nameof(dataType), dataType, $"{(int)dataType} is not a data-type code this library knows.");

    /// <summary>
    /// The data type a <see cref="ListMmf{T}"/> creates its file with: the number type that is <typeparamref name="T"/>
    /// and not a time, otherwise <see cref="DataType.AnyStruct"/>.
    /// </summary>
    public static DataTypeInfo Of<T>()
        where T : unmanaged => OfType<T>.Value;

    /// <summary>
    /// Runs <paramref name="visitor"/> with the .NET type the items are stored as: one piece of code for every number type.
    /// </summary>
    /// <exception cref="InvalidOperationException">The items are not a .NET number type (see <see cref="IsNumber"/>).</exception>
    public abstract TResult Accept<TResult>(IDataTypeVisitor<TResult> visitor);

    /// <summary>The code's name.</summary>
    public override string ToString() => Name;

    /// <summary>Whether <paramref name="code"/> is one this library knows.</summary>
    internal static bool IsDefined(int code) => (uint)code < (uint)ByCode.Length;

    /// <summary>The description of <paramref name="dataType"/>, or null for a code this library does not know.</summary>
    internal static DataTypeInfo? Find(DataType dataType) => IsDefined((int)dataType) ? ByCode[(int)dataType] : null;

    /// <summary>
    /// Whether a file of <paramref name="dataType"/> holds items that are exactly <typeparamref name="T"/>: the code
    /// of T itself, a code stored as T (Unix seconds as int, ticks as long), and, for a struct T, AnyStruct or a
    /// 3- to 7-byte integer of T's size. Only the bit array opens a bit file: its header counts Int32 words.
    /// </summary>
    internal static bool CanHold<T>(DataType dataType)
        where T : unmanaged
    {
        DataTypeInfo stored = Of(dataType);
        DataTypeInfo own = Of<T>();
        return stored.Kind switch
        {
            DataTypeKind.Bits => typeof(T) == typeof(BitWord),
            _ when own.IsNumber => stored.StorageType == typeof(T),
            DataTypeKind.Struct => true,
            _ => !stored.IsNumber && stored.Size == Unsafe.SizeOf<T>(),
        };
    }

    /// <summary>How a list of <typeparamref name="T"/> is named in messages, e.g. <c>ListMmf&lt;Int32&gt;</c>.</summary>
    internal static string ListName<T>() => $"ListMmf<{typeof(T).Name}>";

    /// <summary>What a file of this type holds, for messages: "Int32 items of 4 bytes (data-type code 6)".</summary>
    internal string Describe() => Size == 0
        ? $"{Name} items (data-type code {(int)DataType})"
        : $"{Name} items of {Size} byte{(Size == 1 ? "" : "s")} (data-type code {(int)DataType})";

    private static class OfType<T>
        where T : unmanaged
    {
        public static readonly DataTypeInfo Value =
            ByCode.FirstOrDefault(type => type.StorageType == typeof(T) && !type.IsTime) ?? ByCode[(int)DataType.AnyStruct];
    }

    private sealed class Number<T>(DataType dataType, DataTypeKind kind, string? keyword)
        : DataTypeInfo(dataType, kind, Unsafe.SizeOf<T>(), typeof(T), keyword)
        where T : unmanaged, INumber<T>, IMinMaxValue<T>
    {
        public override TResult Accept<TResult>(IDataTypeVisitor<TResult> visitor)
        {
            ArgumentNullException.ThrowIfNull(visitor);
            return visitor.Visit<T>(this);
        }
    }

    private sealed class Opaque(DataType dataType, DataTypeKind kind, int size)
        : DataTypeInfo(dataType, kind, size, storageType: null, keyword: null)
    {
        public override TResult Accept<TResult>(IDataTypeVisitor<TResult> visitor) =>
            throw new InvalidOperationException($"{Name} items are not a .NET number type; only number types are visited.");
    }
}
