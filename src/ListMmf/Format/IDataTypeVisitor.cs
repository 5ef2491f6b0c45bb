using System.Numerics;

namespace ListMmf;

/// <summary>
/// Code written once for every number type a file can store, which <see cref="DataTypeInfo.Accept"/> runs with the
/// .NET type the data type is stored as: a converter to another format is one visitor, and runs for every type.
/// </summary>
/// <typeparam name="TResult">What the code returns.</typeparam>
public interface IDataTypeVisitor<out TResult>
{
    /// <summary>Runs with <typeparamref name="T"/>, the .NET type the items of <paramref name="type"/> are stored as.</summary>
    /// <param name="type">The data type: <typeparamref name="T"/> alone does not tell Unix seconds from <see cref="int"/>.</param>
    TResult Visit<T>(DataTypeInfo type)
        where T : unmanaged, INumber<T>, IMinMaxValue<T>;
}
