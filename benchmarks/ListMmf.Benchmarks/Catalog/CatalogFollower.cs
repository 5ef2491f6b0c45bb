using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using ListMmf.Benchmarks.Core;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// <c>catalog-follower FOLDER INSTRUMENTS MINUTES ORDER ROWS TURNOVER</c>, a reader process of W3
/// (<see cref="CatalogWorkloadsCommand"/>): opens the catalog, says "ready", follows the writer from the start until
/// it has every row (polling each millisecond when caught up), notes when each minute's rows reached it, and exits 0
/// printing those times (<see cref="Stopwatch.GetTimestamp"/>) only if its checksum is the expected one.
/// </summary>
internal static class CatalogFollower
{
    private static readonly TimeSpan Hang = TimeSpan.FromMinutes(2);

    /// <summary>Starts a follower of the catalog at <paramref name="folder"/>, returning once it has opened it.</summary>
    /// <exception cref="IOException">The follower did not start.</exception>
    public static Process Start(string folder, int instruments, int minutes, ReplayChecksum expected)
    {
        var invariant = CultureInfo.InvariantCulture;
        Process follower = SelfProcess.Start("catalog-follower", folder, instruments.ToString(invariant), minutes.ToString(invariant),
            expected.Order.ToString("x16", invariant), expected.Rows.ToString(invariant), expected.Turnover.ToString("R", invariant));
        if (follower.StandardOutput.ReadLine() != "ready")
        {
            // Whatever it said on its way out (it exits at once when it fails), then it is stopped.
            follower.WaitForExit(TimeSpan.FromSeconds(10));
            string said = follower.HasExited ? follower.StandardError.ReadToEnd() : "(still running)";
            follower.Kill();
            follower.Dispose();
            throw new IOException($"a follower did not start: {said}");
        }

        return follower;
    }

    /// <summary>When each minute's rows reached <paramref name="follower"/>, once it exits.</summary>
    /// <exception cref="IOException">The follower failed, or ran past <paramref name="hang"/>.</exception>
    public static long[] Result(Process follower, int minutes, TimeSpan hang)
    {
        // Both pipes read while it runs, so that neither fills and stops it.
        Task<string> output = follower.StandardOutput.ReadToEndAsync();
        Task<string> errors = follower.StandardError.ReadToEndAsync();
        if (!follower.WaitForExit(hang))
        {
            throw new IOException($"a follower ran past {hang.TotalMinutes} minutes");
        }

        if (follower.ExitCode != 0)
        {
            throw new IOException($"a follower failed: {output.Result} {errors.Result}");
        }

        long[] seen = output.Result.Trim().Split('\n')[^1].Split(' ').Skip(1).Select(text => long.Parse(text, CultureInfo.InvariantCulture)).ToArray();
        return seen.Length == minutes ? seen : throw new IOException($"a follower reported {seen.Length} minutes, not {minutes}");
    }

    /// <summary>The follower's process.</summary>
    public static int Run(ReadOnlySpan<string> args)
    {
        if (args.Length != 6)
        {
            throw new UsageException("usage: catalog-follower FOLDER INSTRUMENTS MINUTES ORDER ROWS TURNOVER (started by catalog-workloads)");
        }

        var invariant = CultureInfo.InvariantCulture;
        int instruments = int.Parse(args[1], invariant);
        int minutes = int.Parse(args[2], invariant);
        var expected = new ReplayChecksum
        {
            Order = ulong.Parse(args[3], NumberStyles.HexNumber, invariant),
            Rows = long.Parse(args[4], invariant),
            Turnover = double.Parse(args[5], invariant),
        };
        var seen = new long[minutes];
        var checksum = new ReplayChecksum();
        using (var catalog = TimeSeriesCatalog.Open(args[0], FileAccess.Read))
        {
            Console.WriteLine("ready");
            using CatalogReplay replay = catalog.Follow(DateTime.MinValue, columns: CatalogWorkloadsCommand.Columns);
            int minute = 0;
            long progress = Stopwatch.GetTimestamp();
            while (checksum.Rows < expected.Rows)
            {
                if (!replay.MoveNext())
                {
                    if (Stopwatch.GetElapsedTime(progress) > Hang)
                    {
                        throw new TimeoutException($"no rows for {Hang.TotalMinutes} minutes at {checksum.Rows:N0} of {expected.Rows:N0}");
                    }

                    Thread.Sleep(1);
                    continue;
                }

                progress = Stopwatch.GetTimestamp();
                CatalogWorkloadsCommand.Add(ref checksum, replay);
                for (; minute < minutes && checksum.Rows >= (long)(minute + 1) * instruments; minute++)
                {
                    seen[minute] = progress;
                }
            }
        }

        CatalogWorkloadsCommand.Check("a follower", checksum, expected);
        Console.WriteLine("seen " + string.Join(' ', seen.Select(at => at.ToString(invariant))));
        return 0;
    }
}
