using System;

namespace ListMmf;

/// <summary>
/// What every list of this library offers, whatever it stores: <see cref="ListMmf{T}"/>, the sorted lists, the time
/// series, <see cref="KeyedListMmf{TRow, TKey, TSelector}"/>, <see cref="IntegerListMmf"/> and
/// <see cref="ListMmfBitArray"/>.
/// </summary>
public interface IListMmf : IDisposable
{
    /// <summary>The full path of the file.</summary>
    string Path { get; }

    /// <summary>Whether this instance is the file's writer.</summary>
    bool IsWritable { get; }

    /// <summary>The data-type code in the file's header.</summary>
    DataType DataType { get; }

    /// <summary>The number of items published.</summary>
    long Count { get; }

    /// <summary>Makes the published items durable: written to the device, with the count that publishes them.</summary>
    void Flush();
}
