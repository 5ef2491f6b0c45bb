using System;
using System.Diagnostics;
using System.IO;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>A one-line progress bar on a terminal; on redirected output, a line every 10%.</summary>
internal sealed class ProgressBar
{
    private const int Width = 40;
    private readonly TextWriter _log;
    private readonly string _label;
    private readonly long _total;
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly bool _interactive = !Console.IsErrorRedirected;
    private int _shown = -1;

    public ProgressBar(TextWriter log, string label, long total)
    {
        _log = log;
        _label = label;
        _total = Math.Max(total, 1);
    }

    public void Report(long done)
    {
        int percent = (int)(done * 100 / _total);
        if (percent == _shown || (!_interactive && percent % 10 != 0))
        {
            return;
        }

        _shown = percent;
        int filled = percent * Width / 100;
        string line = $"{_label} [{new string('#', filled)}{new string('.', Width - filled)}] {percent,3}% {_clock.Elapsed.TotalSeconds,6:F1} s";
        _log.Write(_interactive ? "\r" + line : line + Environment.NewLine);
    }

    public void Done()
    {
        Report(_total);
        if (_interactive)
        {
            _log.WriteLine();
        }
    }
}
