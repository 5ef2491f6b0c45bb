using System;
using System.Diagnostics;
using System.Globalization;
using ListMmf.Storage;

namespace ListMmf.TestHost;

/// <summary>
/// Writers whose replacements fail or die part-way:
/// <list type="bullet">
/// <item><c>replace-kill PATH BACKEND STEP ROUND</c>: opens the Int64 list whose item values are consecutive
/// (each value one more than the one before), prints "ready", then appends consecutive values and drops the oldest
/// (TruncateBeginning) for two minutes at most. With a STEP other than "none" it kills itself (SIGKILL) just before that
/// <see cref="ReplacementStep"/> of its replacement number ROUND; otherwise the test kills it.</item>
/// <item><c>truncate-then-append PATH</c> and <c>widen-then-append PATH</c>: drop the first 100 items of the list
/// (or widen the integer list), report a failure on standard error, then append 50 items and flush. Prints
/// "appended" or "refused: MESSAGE". Run under strace to make a step fail.</item>
/// </list>
/// </summary>
public static class ReplacementFaults
{
    public static int KillLoop(string path, MappingBackend backend, string step, int round)
    {
        using var list = new ListMmf<long>(path, System.IO.FileAccess.ReadWrite, new ListMmfOptions { Backend = backend });
        int replacements = 0;
        if (step != "none")
        {
            ReplacementStep killAt = Enum.Parse<ReplacementStep>(step);
            FileReplacement.BeforeStep = current =>
            {
                if (current == killAt && replacements == round)
                {
                    Process.GetCurrentProcess().Kill();
                }
            };
        }

        Console.WriteLine("ready");
        Console.Out.Flush();
        var random = new Random(Environment.ProcessId);
        var batch = new long[2_000];
        long next = list.Count == 0 ? 0 : list[list.Count - 1] + 1;

        // The test kills it within moments; a test run that died first must not leave it running.
        var lifetime = Stopwatch.StartNew();
        while (lifetime.Elapsed < TimeSpan.FromMinutes(2))
        {
            int size = random.Next(1, batch.Length);
            for (int i = 0; i < size; i++)
            {
                batch[i] = next++;
            }

            list.AddRange(batch.AsSpan(0, size));
            if (list.Count > 10_000)
            {
                list.TruncateBeginning(random.NextInt64(1, list.Count));
                replacements++;
            }
        }

        return 2;
    }

    public static int TruncateThenAppend(string path)
    {
        using var list = new ListMmf<long>(path);
        Report(() => list.TruncateBeginning(100));
        return Append(() =>
        {
            for (int i = 0; i < 50; i++)
            {
                list.Add(i);
            }

            list.Flush();
        });
    }

    public static int WidenThenAppend(string path)
    {
        using var list = IntegerListMmf.OpenSmallest(path);
        Report(() => list.Add(long.MaxValue));
        return Append(() =>
        {
            for (int i = 0; i < 50; i++)
            {
                list.Add(i);
            }

            list.Flush();
        });
    }

    private static void Report(Action replacement)
    {
        try
        {
            replacement();
        }
        catch (ListMmfException exception)
        {
            Console.Error.WriteLine(exception.Message);
        }
    }

    private static int Append(Action append)
    {
        try
        {
            append();
            Console.WriteLine("appended");
        }
        catch (Exception exception) when (exception is ListMmfException or ObjectDisposedException)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"refused: {exception.Message}"));
        }

        return 0;
    }
}
