using System;
using System.Globalization;
using System.IO;

namespace ListMmf.TestHost;

/// <summary>
/// The <c>lifecycle</c> workload of the power-loss harness: the calls that end or rewrite a list rather than append
/// to it, each followed by appends of values it must never let back.
/// <list type="number">
/// <item>10,000 items flushed, then <c>Truncate(6,000)</c>, which makes its count durable: from here on the items
/// from 6,000 are a second generation, <c>~ValueAt(i)</c>, and an item of the first there is one the truncation
/// dropped coming back.</item>
/// <item>6,000 second-generation items appended and the writer disposed without a flush (its <c>Dispose</c> raises
/// the durable count: the items it covers must be on disk whenever that count is).</item>
/// <item>A new writer appends to 16,000 and flushes; for version 1 files, <c>ListMmfFileInfo.Upgrade</c> then rewrites
/// the whole list as version 2 (its copy must be durable before its rename), and a writer appends to 18,000.</item>
/// </list>
/// Each mark is <c>lifecycle:MIN:GEN1FROM[:upgraded]</c>: at least MIN items whatever the crash, second-generation
/// values from GEN1FROM on, and a version 2 file once upgraded.
/// </summary>
public static partial class PowerLoss
{
    private const long LifecycleTruncatedTo = 6_000;

    private static long LifecycleValue(long index, long secondFrom) =>
        index >= secondFrom ? ~Program.ValueAt(index) : Program.ValueAt(index);

    private static int WriteLifecycle(string list, ListMmfOptions options, Action<string> mark)
    {
        using (var writer = new ListMmf<long>(list, FileAccess.ReadWrite, options))
        {
            mark("lifecycle:0:" + long.MaxValue);
            AppendLifecycle(writer, 10_000, long.MaxValue);
            writer.Flush();
            // The truncation comes next: only what it keeps is promised from here.
            mark($"lifecycle:{LifecycleTruncatedTo}:{long.MaxValue}");
            // Truncate itself makes the lower count durable (no flush after it, which would hide a Truncate that did not).
            writer.Truncate(LifecycleTruncatedTo);
            mark($"lifecycle:{LifecycleTruncatedTo}:{LifecycleTruncatedTo}");
            AppendLifecycle(writer, 12_000, LifecycleTruncatedTo);
        }

        using (var writer = new ListMmf<long>(list, FileAccess.ReadWrite, options))
        {
            AppendLifecycle(writer, 16_000, LifecycleTruncatedTo);
            writer.Flush();
            mark($"lifecycle:16000:{LifecycleTruncatedTo}");
        }

        if (options.FormatVersion != ListMmfFormatVersion.Version1)
        {
            return 0;
        }

        ListMmfFileInfo.Upgrade(list);
        mark($"lifecycle:16000:{LifecycleTruncatedTo}:upgraded");
        using (var writer = new ListMmf<long>(list, FileAccess.ReadWrite, options))
        {
            AppendLifecycle(writer, 18_000, LifecycleTruncatedTo);
            writer.Flush();
            mark($"lifecycle:18000:{LifecycleTruncatedTo}:upgraded");
        }

        return 0;
    }

    private static void AppendLifecycle(ListMmf<long> writer, long until, long secondFrom)
    {
        for (long i = writer.Count; i < until; i++)
        {
            writer.Add(LifecycleValue(i, secondFrom));
        }
    }

    /// <summary>
    /// At least MIN items, each under the count as written in its generation; in version 1 (whose live count may reach
    /// the disk before its items) zeros past MIN too. The next writer then appends and flushes, and the list must show
    /// it. Once upgraded, the file is version 2.
    /// </summary>
    private static string CheckLifecycle(string path, string[] promise)
    {
        if (BeforeCreation(path, promise, () => ReadLifecycleFile(path, 0, long.MaxValue)) is { } early)
        {
            return early;
        }

        if (!File.Exists(path))
        {
            return "lost: the list is gone";
        }

        long least = long.Parse(promise[1], CultureInfo.InvariantCulture);
        long secondFrom = long.Parse(promise[2], CultureInfo.InvariantCulture);
        bool upgraded = promise.Length > 3;
        if (upgraded && ListMmfFileInfo.Read(path).Version != 2)
        {
            return "lost: the upgrade returned, and the file is not version 2";
        }

        // The file's own format: a version 1 file upgraded, even before the upgrade's mark, has version 2's promises.
        bool zerosAllowed = ListMmfFileInfo.Read(path).Version < 2;
        if (ReadLifecycleFile(path, least, secondFrom) is { } problem)
        {
            return problem;
        }

        long count;
        using (var writer = new ListMmf<long>(path))
        {
            count = writer.Count;
            // Version 1's next writer goes on after the items as written: zeros past the flush are not items.
            while (zerosAllowed && count > least && writer[count - 1] == 0)
            {
                count--;
            }

            writer.Truncate(count);
            writer.Add(LifecycleValue(count, Math.Min(secondFrom, count)));
            writer.Flush();
        }

        using var after = new ListMmf<long>(path, FileAccess.Read);
        return after.Count != count + 1
            ? $"lost: the next writer flushed {count + 1:N0} items, and {after.Count:N0} show"
            : ReadLifecycle(after, count + 1, Math.Min(secondFrom, count), zerosAllowed: false) ?? "ok";
    }

    private static string? ReadLifecycleFile(string path, long least, long secondFrom)
    {
        using var reader = new ListMmf<long>(path, FileAccess.Read);
        return ReadLifecycle(reader, least, secondFrom, zerosAllowed: ListMmfFileInfo.Read(path).Version < 2);
    }

    private static string? ReadLifecycle(ListMmf<long> list, long least, long secondFrom, bool zerosAllowed)
    {
        long count = list.Count;
        if (count < least)
        {
            return $"lost: {count:N0} items, but {least:N0} were promised";
        }

        for (long i = 0; i < count; i++)
        {
            long item = list[i];
            if (item == LifecycleValue(i, secondFrom) || (zerosAllowed && i >= least && item == 0))
            {
                continue;
            }

            // Past the truncation and before its mark, the first generation's values are the truncation not made.
            if (secondFrom == long.MaxValue || i < secondFrom || item != Program.ValueAt(i))
            {
                return i < least
                    ? $"lost: item {i:N0} of {count:N0} is {item}, not as written"
                    : $"undetected: item {i:N0} of {count:N0}, past the promise, is {item}, which was never written there";
            }

            return $"undetected: item {i:N0} of {count:N0} is a value the truncation to {secondFrom:N0} dropped";
        }

        return null;
    }
}
