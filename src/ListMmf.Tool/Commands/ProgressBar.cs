using System;
using Spectre.Console;

namespace ListMmf.Tool.Commands;

/// <summary>A progress bar on standard error while a long job runs, only when standard error is a terminal.</summary>
internal static class ProgressBar
{
    /// <summary>Files larger than this get a progress bar while they are checked.</summary>
    public const long LargeFileBytes = 256L << 20;

    /// <summary>Runs <paramref name="job"/>, giving it a callback that takes the work done and the work in all.</summary>
    public static T Run<T>(string description, bool show, Func<Action<long, long>?, T> job)
    {
        if (!show || Console.IsErrorRedirected)
        {
            return job(null);
        }

        IAnsiConsole console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(Console.Error) });
        return console.Progress().AutoClear(true).Start(context =>
        {
            ProgressTask task = context.AddTask(description);
            return job((done, total) =>
            {
                task.MaxValue = Math.Max(1, total);
                task.Value = done;
            });
        });
    }
}
