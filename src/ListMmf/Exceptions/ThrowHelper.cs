using System;
using System.Diagnostics.CodeAnalysis;

namespace ListMmf;

/// <summary>Throws for the list's guard clauses, kept out of line so the hot paths stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    public static void IndexOutOfRange(long index, long count) =>
        throw new ArgumentOutOfRangeException(nameof(index), index, $"The index must be at least 0 and less than Count ({count:N0}).");

    [DoesNotReturn]
    public static void RangeOutOfBounds(long start, long length, long count) =>
        throw new ArgumentOutOfRangeException(
            nameof(start),
            $"The range of {length:N0} items starting at {start:N0} does not lie within the list's {count:N0} items.");

    /// <summary>A range within the list, too long for one span.</summary>
    [DoesNotReturn]
    public static void RangeTooLongForASpan(long start, long length) =>
        throw new ArgumentOutOfRangeException(
            nameof(length),
            $"The range of {length:N0} items starting at {start:N0} is longer than a span can be ({int.MaxValue:N0} items, " +
                "int.MaxValue): take it in parts.");

    /// <summary>
    /// The length of a span or memory over <paramref name="length"/> items from <paramref name="start"/> of a list of
    /// <paramref name="count"/>, checked to lie within the list and to fit a span.
    /// </summary>
    public static int SpanLength(long start, long length, long count)
    {
        if (start < 0 || length < 0 || start > count - length)
        {
            RangeOutOfBounds(start, length, count);
        }

        if (length > int.MaxValue)
        {
            RangeTooLongForASpan(start, length);
        }

        return (int)length;
    }

    [DoesNotReturn]
    public static void InvalidSearchRange(long first, long last, long count) =>
        throw new ArgumentOutOfRangeException(
            nameof(first),
            $"The search range [{first:N0}, {last:N0}) must satisfy 0 <= first <= last <= Count ({count:N0}).");

    [DoesNotReturn]
    public static void ArgumentOutOfRange(string paramName, long value, string message) =>
        throw new ArgumentOutOfRangeException(paramName, value, message);

    /// <summary>Refuses a span of results shorter than the <paramref name="what"/> (times, values) it answers.</summary>
    public static void CheckResults(int results, int asked, string what)
    {
        if (results < asked)
        {
            throw new ArgumentException($"The results span holds {results:N0} items, fewer than the {asked:N0} {what}.", nameof(results));
        }
    }

    /// <summary>Refuses a destination shorter than the range copied into it.</summary>
    public static void CheckDestination(int destination, long range)
    {
        if (destination < range)
        {
            throw new ArgumentException(
                $"The destination holds {destination:N0} items, fewer than the {range:N0} in the range.", nameof(destination));
        }
    }

    /// <summary>
    /// A writer refused because another holds the data file's own lock (<c>StoragePlatform.LockData</c>): it reached the
    /// file by another name. <paramref name="outcome"/> says what the refused call leaves.
    /// </summary>
    [DoesNotReturn]
    public static void WriterUnderAnotherName(string path, string outcome) =>
        throw new ListMmfLockedException(path, "another writer has the file open for writing under another name (it was " +
            $"renamed, or is reached through a hard link or a bind mount); {outcome}");

    [DoesNotReturn]
    public static void ReadOnly(string path) =>
        throw new NotSupportedException($"'{path}' was opened read-only; open it with FileAccess.ReadWrite to change it.");

    [DoesNotReturn]
    public static void DamagedCount(string path, long count, long capacity) =>
        throw new ListMmfFormatException(
            path,
            count < 0
                ? $"the header's count has become negative ({count:N0}) since the file was opened; another program " +
                    $"damaged it. Nothing was read or written through it."
                : $"the header's count ({count:N0}) has moved past the end of the file (room for {capacity:N0} items) " +
                    $"since the file was opened; another program damaged it. Nothing was read or written through it.");

    [DoesNotReturn]
    public static void Disposed(string path) =>
        throw new ObjectDisposedException($"ListMmf('{path}')");
}
