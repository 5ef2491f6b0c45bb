using System.Numerics;

namespace ListMmf;

/// <summary>
/// Code written once for every number type a file can store, which <see cref="DataTypeDispatch.Invoke"/> runs
/// with the type a <see cref="DataType"/> names.
/// </summary>
/// <typeparam name="TResult">What the code returns.</typeparam>
public interface IDataTypeFunc<out TResult>
{
    /// <summary>Runs with <typeparamref name="T"/>, the stored number type.</summary>
    TResult Invoke<T>()
        where T : unmanaged, INumber<T>;
}
