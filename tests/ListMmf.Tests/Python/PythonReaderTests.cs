using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.Json;
using System.Text.Json.Nodes;
using Xunit;

namespace ListMmf.Tests.Python;

/// <summary>A fact that runs python3; without it on the PATH it reports as skipped, never as passed.</summary>
public sealed class PythonFactAttribute : FactAttribute
{
    private static readonly Lazy<bool> s_hasPython = new(() =>
    {
        try
        {
            using Process process = Process.Start(new ProcessStartInfo("python3", "--version") { RedirectStandardOutput = true, RedirectStandardError = true })!;
            process.WaitForExit();
            return process.ExitCode == 0;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return false;
        }
    });

    public PythonFactAttribute()
    {
        if (!s_hasPython.Value)
        {
            Skip = "needs python3 on the PATH";
        }
    }

    /// <summary>
    /// Whether the test replaces the file under the Python reader: on Windows Python opens and maps files without
    /// delete sharing, so a Python reader that has the file open blocks the replacement there (the README says so).
    /// </summary>
    public bool ReplacesTheFile
    {
        get => _replacesTheFile;
        set
        {
            _replacesTheFile = value;
            if (value && Skip is null && OperatingSystem.IsWindows())
            {
                Skip = "needs Linux or macOS: Python opens files without delete sharing on Windows, which blocks a replacement";
            }
        }
    }

    private bool _replacesTheFile;
}

/// <summary>
/// The Python reader (src/python/listmmf.py) against files this library writes: one file per standard data-type
/// code with its edge values, described in expected.json as tests/python/test_listmmf.py documents; the Python
/// test suite then runs with them.
/// </summary>
public sealed class PythonReaderTests : IDisposable
{
    private static readonly DateTime[] Times =
    [
        new(1970, 1, 1), new(2001, 9, 9, 1, 46, 40), new(2024, 1, 2, 9, 30, 0), new(2038, 1, 19, 3, 14, 7), new(1901, 12, 13, 20, 45, 53), DateTime.MinValue,
    ];

    private readonly TempDirectory _directory = new();
    private readonly JsonObject _expected = [];

    public void Dispose() => _directory.Dispose();

    [PythonFact]
    public void ThePythonReaderReadsEveryStandardTypeThisLibraryWrites()
    {
        Write<sbyte>("SByte", [sbyte.MinValue, -1, 0, sbyte.MaxValue], value => value);
        Write<byte>("Byte", [0, 1, byte.MaxValue], value => value);
        Write<short>("Int16", [short.MinValue, -2, short.MaxValue], value => value);
        Write<ushort>("UInt16", [0, ushort.MaxValue], value => value);
        Write<int>("Int32", [int.MinValue, -3, 0, int.MaxValue], value => value);
        Write<uint>("UInt32", [0, uint.MaxValue], value => value);
        Write<long>("Int64", [long.MinValue, -4, long.MaxValue], value => value);
        Write<ulong>("UInt64", [0, ulong.MaxValue], value => value);
        Write<float>("Single", [-1.5f, 0, 3.4028235e38f, 1.17549435e-38f, 0.1f], value => value);
        Write<double>("Double", [-2.5, 0, double.MaxValue, double.Epsilon, 0.1, 4500.25], value => value);
        WriteTimes();

        (int exitCode, string output) = RunPython();

        Assert.True(exitCode == 0, output);
        Assert.Matches(@"test_fixtures \(test_listmmf\.FixtureTests\.test_fixtures\) \.\.\. ok", output);
    }

    [PythonFact(ReplacesTheFile = true)]
    public void ThePythonReaderFollowsAListReplacedOverAndOver()
    {
        const string Reader = """
            import os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            path, stop = sys.argv[1], sys.argv[2]
            reads = failures = wrong = 0
            first = ""
            print("ready", flush=True)
            while not os.path.exists(stop):
                try:
                    items = list(listmmf.open_items(path))
                    reads += 1
                    wrong += any(b != a + 1 for a, b in zip(items, items[1:]))
                except Exception as error:
                    failures += 1
                    first = first or str(error)
            print(f"reads={reads} failures={failures} wrong={wrong} {first}", flush=True)
            """;
        string path = _directory.File("window.bt");
        string stop = _directory.File("stop");
        using var writer = new ListMmf<int>(path);
        writer.AddRange(Enumerable.Range(0, 100).ToArray());
        var start = new ProcessStartInfo("python3") { WorkingDirectory = RepositoryFiles.Root, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (string arg in new[] { "-c", Reader, path, stop })
        {
            start.ArgumentList.Add(arg);
        }

        using Process python = Process.Start(start)!;
        Assert.Equal("ready", python.StandardOutput.ReadLine());
        for (int round = 1; round <= 1_000; round++)
        {
            writer.AddRange(Enumerable.Range(100 * round, 100).ToArray());
            writer.TruncateBeginning(100);
        }

        File.WriteAllText(stop, "");
        string line = python.StandardOutput.ReadLine() ?? "";
        Assert.True(python.WaitForExit(TimeSpan.FromMinutes(1)), "the Python reader did not stop");
        Assert.Matches(@"^reads=\d+ failures=0 wrong=0", line);
        Assert.True(int.Parse(line.Split(' ')[0]["reads=".Length..], CultureInfo.InvariantCulture) >= 20, line);
    }

    private void Write<T>(string name, T[] values, Func<T, JsonNode> json)
        where T : unmanaged
    {
        // Each type in both formats: version 1 as ListMmf 1.x writes it, and version 2 (its header version field 2).
        foreach ((ListMmfFormatVersion format, string suffix, int version) in new[] { (ListMmfFormatVersion.Version1, ".v1.bt", 0), (ListMmfFormatVersion.Version2, ".bt", 2) })
        {
            using (var list = new ListMmf<T>(_directory.File(name + suffix), FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = format }))
            {
                list.AddRange(values);
            }

            _expected[name + suffix] = new JsonObject
            {
                ["code"] = (int)DataTypeInfo.Of<T>().DataType,
                ["version"] = version,
                ["values"] = new JsonArray(values.Select(json).ToArray()),
            };
        }
    }

    private void WriteTimes()
    {
        using (var seconds = new ListMmfTimeSeriesDateTimeSeconds(_directory.File("UnixSeconds.bt"), TimeSeriesOrder.AscendingOrEqual))
        using (var ticks = new ListMmfTimeSeriesDateTime(_directory.File("DateTime.bt"), TimeSeriesOrder.AscendingOrEqual))
        {
            DateTime[] sorted = Times.Order().ToArray();
            seconds.AddRange(sorted);
            ticks.AddRange([DateTime.MinValue, .. sorted, new DateTime(9999, 12, 31, 23, 59, 59)]);
        }

        using var secondsList = new ListMmf<int>(_directory.File("UnixSeconds.bt"), FileAccess.Read);
        using var ticksList = new ListMmf<long>(_directory.File("DateTime.bt"), FileAccess.Read);
        _expected["UnixSeconds.bt"] = TimesEntry(DataType.UnixSeconds, secondsList.Select(s => (long)s), secondsList.Select(s => ListMmfTimeSeriesDateTimeSeconds.ToDateTime(s)));
        _expected["DateTime.bt"] = TimesEntry(DataType.DateTime, ticksList, ticksList.Select(t => new DateTime(t)));
    }

    private static JsonObject TimesEntry(DataType code, IEnumerable<long> raw, IEnumerable<DateTime> times) => new()
    {
        ["code"] = (int)code,
        ["version"] = 2,
        ["values"] = new JsonArray(raw.Select(value => (JsonNode)value).ToArray()),
        ["iso"] = new JsonArray(times.Select(time => (JsonNode)time.ToString("yyyy-MM-ddTHH:mm:ss", CultureInfo.InvariantCulture)).ToArray()),
    };

    private (int ExitCode, string Output) RunPython()
    {
        File.WriteAllText(_directory.File("expected.json"), _expected.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
        var start = new ProcessStartInfo("python3")
        {
            WorkingDirectory = RepositoryFiles.Root,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string arg in new[] { "-m", "unittest", "discover", "-s", "tests/python", "-v" })
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["LISTMMF_PY_FIXTURES"] = _directory.Path;
        start.Environment["PYTHONDONTWRITEBYTECODE"] = "1";
        using Process process = Process.Start(start)!;
        System.Threading.Tasks.Task<string> output = process.StandardOutput.ReadToEndAsync();
        string error = process.StandardError.ReadToEnd();
        if (!process.WaitForExit(TimeSpan.FromMinutes(2)))
        {
            process.Kill();
        }

        return (process.ExitCode, error + output.Result);
    }
}
