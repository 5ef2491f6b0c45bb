using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ListMmf.Benchmarks.Data;
using ListMmf.Benchmarks.LowerBound;

namespace ListMmf.Benchmarks.Sealed;

/// <summary>
/// <c>python-reads [--generated ROWS] [--lean DIR] [--rounds R] [--work DIR] [--python PATH]</c>: the Python reader's
/// time to read a sealed table, and each of its columns, against the same table appendable, in one Python process
/// that alternates the two forms round by round (the order flipped every round), so that both meet the same machine:
/// the measure of issue 65's "a sealed column reads in at most 2x the appendable column's time". Every read of the
/// sealed form must give the appendable form's values, or the command fails.
/// </summary>
internal static class PythonReadsCommand
{
    /// <summary>Times each read with <c>time.perf_counter</c>; prints a line a read and the medians, ratios last.</summary>
    private const string Script = """
        import os, statistics, sys, time
        sys.path.insert(0, sys.argv[1])
        import listmmf
        if listmmf.np is None:
            sys.exit("numpy does not import: this benchmark reads with the numpy decoder")
        rounds, appendable, sealed = int(sys.argv[2]), sys.argv[3], sys.argv[4]
        columns = [pair.split("|") for pair in sys.argv[5:]]
        reads = [("table", lambda folder: listmmf.to_pandas(folder), appendable, sealed)]
        reads += [(os.path.basename(a), lambda path: listmmf.open_items(path), a, s) for a, s in columns]
        for name, read, a, s in reads:
            first, second = read(a), read(s)
            same = first.equals(second) if hasattr(first, "equals") else first.tobytes() == second.tobytes()
            if not same:
                sys.exit(f"{name}: the sealed form reads other values than the appendable one")
            timings = {"appendable": [], "sealed": []}
            for round_ in range(rounds):
                order = (("appendable", a), ("sealed", s)) if round_ % 2 == 0 else (("sealed", s), ("appendable", a))
                for form, path in order:
                    start = time.perf_counter()
                    read(path)
                    timings[form].append((time.perf_counter() - start) * 1000)
            appendable_ms, sealed_ms = statistics.median(timings["appendable"]), statistics.median(timings["sealed"])
            print(f"| {name} | {appendable_ms:,.1f} | {sealed_ms:,.1f} | {sealed_ms / appendable_ms:.2f}x |")
        """;

    /// <summary>python3 on the PATH, else Debian's, as the tests choose: the first that imports numpy and pandas.</summary>
    private static readonly string[] Interpreters = ["python3", "/usr/bin/python3"];

    public static int Run(int generated, string? lean, int rounds, string work, string? python)
    {
        var sets = new List<LeanTicks>();
        if (generated > 0)
        {
            sets.Add(LeanTicks.Generated(generated));
        }

        if (lean is not null)
        {
            sets.AddRange(LeanTicks.Read(lean).Where(set => set.Kind == "quote"));
        }

        if (sets.Count == 0)
        {
            throw new UsageException("python-reads needs --generated ROWS or --lean DIR");
        }

        string interpreter = python ?? FirstWithNumpy()
            ?? throw new UsageException("no python3 on this machine imports numpy and pandas: pass --python PATH");
        string module = Path.Combine(RepositoryRoot(), "src", "python");
        Directory.CreateDirectory(work);
        int exitCode = 0;
        foreach (LeanTicks set in sets)
        {
            string name = $"{set.Symbol}_{set.Kind}";
            string appendable = Path.Combine(work, name + ".appendable");
            string sealedFolder = Path.Combine(work, name + ".sealed");
            set.WriteTable(appendable);
            set.WriteTable(sealedFolder);
            TimeSeriesTable.Seal(sealedFolder);
            string[] columns = PairedColumns(appendable, sealedFolder);
            Console.WriteLine($"### {name}: {set.Rows:N0} rows, {rounds} rounds of each form, medians ({interpreter})");
            Console.WriteLine();
            Console.WriteLine("| read | appendable ms | sealed ms | sealed / appendable |");
            Console.WriteLine("|---|---|---|---|");
            (int code, string output) = RunPython(interpreter, ["-c", Script, module,
                rounds.ToString(System.Globalization.CultureInfo.InvariantCulture), appendable, sealedFolder, .. columns]);
            Console.Write(output);
            Console.WriteLine();
            exitCode |= code;
        }

        return exitCode;
    }

    /// <summary>Each column's file in the appendable table and in the sealed one, as "appendable|sealed".</summary>
    private static string[] PairedColumns(string appendable, string sealedFolder)
    {
        using var appendableTable = TimeSeriesTable.Open(appendable, FileAccess.Read);
        using var sealedTable = TimeSeriesTable.Open(sealedFolder, FileAccess.Read);
        return appendableTable.Columns.Zip(sealedTable.Columns, (a, s) => a.Path + "|" + s.Path).ToArray();
    }

    private static string? FirstWithNumpy() =>
        Interpreters.FirstOrDefault(python => RunPython(python, ["-c", "import numpy, pandas"]).ExitCode == 0);

    private static (int ExitCode, string Output) RunPython(string python, IEnumerable<string> args)
    {
        var start = new ProcessStartInfo(python) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        try
        {
            using Process process = Process.Start(start)!;
            System.Threading.Tasks.Task<string> error = process.StandardError.ReadToEndAsync();
            string output = process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return (process.ExitCode, output + error.Result);
        }
        catch (System.ComponentModel.Win32Exception exception)
        {
            return (-1, exception.Message);
        }
    }

    /// <summary>The repository's root: the first folder above this program's that holds ListMmf.sln.</summary>
    private static string RepositoryRoot()
    {
        for (DirectoryInfo? folder = new(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "ListMmf.sln")))
            {
                return folder.FullName;
            }
        }

        throw new UsageException("python-reads runs from the repository: ListMmf.sln was not found above " + AppContext.BaseDirectory);
    }
}
