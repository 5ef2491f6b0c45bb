using System;
using System.Diagnostics;
using System.IO;

namespace ListMmf.Benchmarks.Core;

/// <summary>Another process of this benchmark console, with its output read through pipes: a reader a command times beside its writer.</summary>
internal static class SelfProcess
{
    /// <summary>Starts the console with <paramref name="args"/> (a command and its arguments).</summary>
    /// <exception cref="InvalidOperationException">The process could not be started.</exception>
    public static Process Start(params string[] args)
    {
        string host = Environment.ProcessPath ?? throw new InvalidOperationException("no process path");
        var start = new ProcessStartInfo(host) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (Path.GetFileNameWithoutExtension(host) == "dotnet")
        {
            start.ArgumentList.Add(typeof(SelfProcess).Assembly.Location);
        }

        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        return Process.Start(start) ?? throw new InvalidOperationException($"{host} did not start");
    }
}
