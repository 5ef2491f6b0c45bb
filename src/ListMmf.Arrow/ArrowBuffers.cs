using System;
using Apache.Arrow;
using Apache.Arrow.Types;
using CommunityToolkit.HighPerformance;

namespace ListMmf.Arrow;

/// <summary>Arrow arrays over memory that is already laid out as Arrow wants it: no null bitmap, the values as they are.</summary>
internal static class ArrowBuffers
{
    /// <summary>An array of <paramref name="type"/> whose value buffer is <paramref name="values"/> itself.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The values take more than <see cref="int.MaxValue"/> bytes,
    /// which an Arrow buffer of .NET cannot hold.</exception>
    public static unsafe IArrowArray Wrap<T>(ReadOnlyMemory<T> values, IArrowType type, string source)
        where T : unmanaged
    {
        if ((long)values.Length * sizeof(T) > int.MaxValue)
        {
            throw new ArgumentOutOfRangeException(
                nameof(values),
                $"'{source}': {values.Length:N0} {typeof(T).Name} values take {(long)values.Length * sizeof(T):N0} " +
                    $"bytes, and a .NET Arrow buffer holds at most {int.MaxValue:N0}; hand the rows over in batches " +
                        $"of at most {int.MaxValue / sizeof(T):N0} (ToRecordBatches).");
        }

        var data = new ArrayData(type, values.Length, nullCount: 0, offset: 0, [ArrowBuffer.Empty, new ArrowBuffer(values.AsBytes())], []);
        return ArrowArrayFactory.BuildArray(data);
    }
}
