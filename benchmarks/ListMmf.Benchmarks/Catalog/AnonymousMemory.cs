using System;
using System.Globalization;
using System.IO;
using System.Threading;

namespace ListMmf.Benchmarks.Catalog;

/// <summary>
/// The most memory a piece of work held beyond the page cache: the process's anonymous resident memory
/// (<c>RssAnon</c> of <c>/proc/self/status</c>: heaps, stacks, buffers; not the file pages it maps, which the page
/// cache holds for every process) sampled every few milliseconds while the work runs, less what it held when the work
/// started. Linux only: <see cref="Peak"/> is null elsewhere.
/// </summary>
internal sealed class AnonymousMemory : IDisposable
{
    private const int SampleMilliseconds = 5;

    private readonly long _baseline;
    private readonly Thread? _sampler;
    private long _highest;
    private volatile bool _stopped;

    private AnonymousMemory()
    {
        _baseline = Resident() ?? 0;
        _highest = _baseline;
        if (OperatingSystem.IsLinux())
        {
            _sampler = new Thread(Sample) { IsBackground = true, Name = "RssAnon sampler" };
            _sampler.Start();
        }
    }

    /// <summary>Starts sampling; dispose to stop.</summary>
    public static AnonymousMemory Watch() => new();

    /// <summary>The most bytes held beyond those at the start, so far; null where it cannot be read.</summary>
    public long? Peak => _sampler is null ? null : Math.Max(0, Math.Max(Interlocked.Read(ref _highest), Resident() ?? 0) - _baseline);

    public void Dispose()
    {
        _stopped = true;
        _sampler?.Join();
    }

    private void Sample()
    {
        while (!_stopped)
        {
            long now = Resident() ?? 0;
            if (now > Interlocked.Read(ref _highest))
            {
                Interlocked.Exchange(ref _highest, now);
            }

            Thread.Sleep(SampleMilliseconds);
        }
    }

    private static long? Resident()
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        foreach (string line in File.ReadLines("/proc/self/status"))
        {
            if (line.StartsWith("RssAnon:", StringComparison.Ordinal))
            {
                // "RssAnon:	   12345 kB"
                ReadOnlySpan<char> value = line.AsSpan("RssAnon:".Length).Trim();
                return long.Parse(value[..value.IndexOf(' ')], NumberStyles.Integer, CultureInfo.InvariantCulture) * 1024;
            }
        }

        return null;
    }
}
