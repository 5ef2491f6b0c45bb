using System;
using System.Diagnostics;
using System.Linq;

namespace ListMmf.Tests.Python;

/// <summary>Runs a Python interpreter from the repository's root (or a folder under it), as the Python tests do.</summary>
public static class PythonProcess
{
    private static readonly TimeSpan HangDeadline = TimeSpan.FromMinutes(10);
    private static readonly string[] Interpreters = ["python3", "/usr/bin/python3"];

    /// <summary>python3 on the PATH, else Debian's /usr/bin/python3, whichever first imports every module named; null when none does.</summary>
    public static string? FirstThatImports(params string[] modules) =>
        Interpreters.FirstOrDefault(python => Imports(python, modules));

    /// <summary>Runs <paramref name="python"/> with <paramref name="args"/>; returns its exit code and everything it printed.</summary>
    public static (int ExitCode, string Output) Run(string python, string[] args, string workingSubfolder = "")
    {
        var start = new ProcessStartInfo(python)
        {
            WorkingDirectory = System.IO.Path.Combine(RepositoryFiles.Root, workingSubfolder),
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["PYTHONDONTWRITEBYTECODE"] = "1";
        using Process process = Process.Start(start)!;
        System.Threading.Tasks.Task<string> error = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        if (!process.WaitForExit(HangDeadline))
        {
            process.Kill(entireProcessTree: true);
            return (-1, $"python did not finish in {HangDeadline.TotalMinutes} minutes");
        }

        return (process.ExitCode, output + error.Result);
    }

    private static bool Imports(string python, string[] modules)
    {
        try
        {
            // Under Wine, starting a Linux path gives no process rather than an exception.
            using Process? process = Process.Start(new ProcessStartInfo(python, ["-W", "ignore", "-c", "import " + string.Join(", ", modules)])
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            });
            if (process is null)
            {
                return false;
            }

            process.WaitForExit();
            return process.ExitCode == 0;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return false;
        }
    }
}
