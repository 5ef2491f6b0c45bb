using System;

namespace ListMmf.Tool.CatalogImport;

/// <summary>A file's times put in order, for files an engine wrote in no set order.</summary>
internal static class TimeOrder
{
    /// <summary>
    /// Sorts <paramref name="times"/> in place, equal times kept in their order; returns, for each sorted row, the
    /// row it was, or null when the times were in order already (nothing moved).
    /// </summary>
    public static int[]? Sort(long[] times)
    {
        int unordered = 1;
        while (unordered < times.Length && times[unordered - 1] <= times[unordered])
        {
            unordered++;
        }

        if (unordered >= times.Length)
        {
            return null;
        }

        int[] rows = new int[times.Length];
        for (int i = 0; i < rows.Length; i++)
        {
            rows[i] = i;
        }

        Array.Sort(times, rows);

        // Array.Sort is not stable: within each run of one time, the rows go back to the file's order.
        for (int start = 0; start < times.Length;)
        {
            int end = start + 1;
            while (end < times.Length && times[end] == times[start])
            {
                end++;
            }

            if (end - start > 1)
            {
                Array.Sort(rows, start, end - start);
            }

            start = end;
        }

        return rows;
    }

    /// <summary>The first row whose time equals the one before it, in times sorted; null when none does.</summary>
    public static int? FirstRepeat(ReadOnlySpan<long> times)
    {
        for (int i = 1; i < times.Length; i++)
        {
            if (times[i] == times[i - 1])
            {
                return i;
            }
        }

        return null;
    }
}
