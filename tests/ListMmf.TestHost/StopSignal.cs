using System;
using System.Threading;

namespace ListMmf.TestHost;

/// <summary>
/// Set when the test that started this process writes a line to its standard input or closes it: a child that runs
/// until told to stop, rather than for a fixed time, does as much work on a loaded machine as on a quiet one.
/// </summary>
public sealed class StopSignal
{
    private volatile bool _set;

    private StopSignal()
    {
    }

    public bool IsSet => _set;

    public static StopSignal FromStandardInput()
    {
        var signal = new StopSignal();
        var listener = new Thread(() =>
        {
            Console.In.ReadLine();
            signal._set = true;
        })
        {
            IsBackground = true,
        };
        listener.Start();
        return signal;
    }
}
