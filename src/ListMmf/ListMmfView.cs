using System;

namespace ListMmf;

/// <summary>
/// A <see cref="ListMmf{T}"/> file seen through a type with rules of its own (sorted, keyed by a field of its
/// rows, or a time series): what it shares with the list it keeps.
/// </summary>
/// <typeparam name="T">The stored item.</typeparam>
public abstract class ListMmfView<T> : IListMmf
    where T : unmanaged
{
    private protected ListMmfView(ListMmf<T> list)
    {
        List = list;
    }

    /// <summary>The full path of the file.</summary>
    public string Path => List.Path;

    /// <summary>Whether this instance is the file's writer.</summary>
    public bool IsWritable => List.IsWritable;

    /// <summary>The data-type code in the file's header.</summary>
    public DataType DataType => List.DataType;

    /// <summary>The number of items published; see <see cref="ListMmf{T}.Count"/>.</summary>
    public long Count => List.Count;

    /// <summary>The list the items are kept in.</summary>
    internal ListMmf<T> List { get; }

    /// <inheritdoc cref="ListMmf{T}.Flush"/>
    public void Flush()
    {
        List.Flush();
        Flushed();
    }

    /// <inheritdoc cref="ListMmf{T}.Dispose"/>
    public void Dispose()
    {
        try
        {
            Release();
        }
        finally
        {
            List.Dispose();
            GC.SuppressFinalize(this);
        }
    }

    /// <summary>What the view does once the list's items are durable (a sorted list writes the fences of a cold start).</summary>
    private protected virtual void Flushed()
    {
    }

    /// <summary>Releases what the view holds beside the list (a sorted list's cold searches), before the list is disposed.</summary>
    private protected virtual void Release()
    {
    }
}
