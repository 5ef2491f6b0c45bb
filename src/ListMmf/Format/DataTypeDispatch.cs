using System;

namespace ListMmf;

/// <summary>The one place where a <see cref="DataType"/> read from a header becomes a type argument.</summary>
public static class DataTypeDispatch
{
    /// <summary>
    /// Whether <paramref name="dataType"/> is stored as a .NET number type: the ten primitive codes, and the times
    /// (<see cref="DataType.UnixSeconds"/> as <see cref="int"/>, <see cref="DataType.DateTime"/> ticks as <see cref="long"/>).
    /// </summary>
    public static bool StoresNumber(DataType dataType) =>
        dataType is >= DataType.SByte and <= DataType.Double or DataType.DateTime or DataType.UnixSeconds;

    /// <summary>Runs <paramref name="func"/> with the number type <paramref name="dataType"/> is stored as.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The code is not stored as a .NET number type (see <see cref="StoresNumber"/>).</exception>
    public static TResult Invoke<TResult>(DataType dataType, IDataTypeFunc<TResult> func)
    {
        ArgumentNullException.ThrowIfNull(func);
        return dataType switch
        {
            DataType.SByte => func.Invoke<sbyte>(),
            DataType.Byte => func.Invoke<byte>(),
            DataType.Int16 => func.Invoke<short>(),
            DataType.UInt16 => func.Invoke<ushort>(),
            DataType.Int32 or DataType.UnixSeconds => func.Invoke<int>(),
            DataType.UInt32 => func.Invoke<uint>(),
            DataType.Int64 or DataType.DateTime => func.Invoke<long>(),
            DataType.UInt64 => func.Invoke<ulong>(),
            DataType.Single => func.Invoke<float>(),
            DataType.Double => func.Invoke<double>(),
            _ => throw new ArgumentOutOfRangeException(nameof(dataType), dataType, $"{dataType} is not stored as a .NET number type."),
        };
    }
}
