using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Numerics;
using System.Text.Json;
using System.Text.Json.Nodes;
using ListMmf.Sealed;
using ListMmf.Tests.Sealed;
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

    /// <summary>
    /// Every type sealed, its values chosen so that the blocks take every codec (ascending: frame of reference or
    /// ticks; a walk: deltas or tick deltas; edge values: plain), read by the Python reader from the format alone.
    /// </summary>
    [PythonFact]
    public void ThePythonReaderDecodesEverySealedCodecThisLibraryWrites()
    {
        WriteSealed("SByte", Integers(-128, 100, i => i / 8, [sbyte.MinValue, sbyte.MaxValue]), v => (sbyte)v, v => v);
        WriteSealed("Byte", Integers(0, 120, i => i / 8, [byte.MaxValue, 0]), v => (byte)v, v => v);
        WriteSealed("Int16", Integers(-30_000, 0, i => i * 3, [short.MinValue, short.MaxValue]), v => (short)v, v => v);
        WriteSealed("UInt16", Integers(1, 30_000, i => i * 3, [0, ushort.MaxValue]), v => (ushort)v, v => v);
        WriteSealed("Int32", Integers(-2_000_000, -7, i => i * 1_001, [int.MinValue, int.MaxValue]), v => (int)v, v => v);
        WriteSealed("UInt32", Integers(5, 3_000_000_000, i => i * 3, [0, uint.MaxValue]), v => (uint)v, v => v);
        WriteSealed("Int64", Integers(long.MinValue / 2, 0, i => i * 99_991, [long.MinValue, long.MaxValue]), v => (long)v, v => v);
        WriteSealed("UInt64", Integers(1L << 62, 1L << 40, i => i, [0, ulong.MaxValue]), v => (ulong)v, v => v);
        WriteSealed("Single", Series(-1_200, 0.25, 10, i => i, [-1.5, 3.4028234663852886e38, 1.1754943508222875e-38, 0.1]),
            v => (float)v, v => v);
        WriteSealed("Double", Series(4_000, 0.25, 4_500, i => i * 2, [-2.5, double.MaxValue, double.Epsilon, 0.1]), v => v, v => v);
        WriteSealed("DoubleCents", Integers(-150_000, 18_734, i => i * 7, [0, long.MaxValue]), v => (double)v / 100, v => v);
        WriteSealed("SinglePips", Integers(-150_000, 108_731, i => i * 7, [0, int.MaxValue]), v => (float)v / 100_000f, v => v);
        WriteSealed("Int32Sizes", Sizes(i => i % 9 + 1, i => 100 + (i * 37 % 900)), v => v, v => v);
        WriteSealed("UInt64Outliers", Sizes(i => (ulong)(i % 9), i => ulong.MaxValue - (ulong)i), v => v, v => v);
        WriteSealedSmallest("UInt24Sizes", Sizes(i => (long)(i % 9) + 1, i => 16_000_000L + i), DataType.UInt24);
        int[] codes = [3, 40, 41, 900, 70_000];
        Int128[] codeSeries = Enumerable.Range(0, 3_000).Select(i => (Int128)codes[i * 7 % 11 % codes.Length]).ToArray();
        WriteSealed("Int32Codes", codeSeries, v => (int)v, v => v);
        WriteSealed("DoubleQuarterLevels", codeSeries, v => (double)v * 0.25, v => v);
        WriteSealed("DoubleQuoteSide", codeSeries, v => v % 2 == 0 ? 0 : (double)(10_000 + v) / 100, v => v);

        // Stepped frames (in an order of their own: ascending ones take Elias-Fano) and dictionaries of the same width in
        // turn: the numpy decoder decodes them as one group.
        int[] eightCodes = [3, 40, 41, 900, 70_000, 5, 6, 7];
        Int128[] stepsAndCodes = Enumerable.Range(0, 4_096)
            .Select(i => i / 1_024 % 2 == 0 ? (Int128)(i * 389 % 1_024 / 128 * 1_000) : eightCodes[i * 7 % 8]).ToArray();
        WriteSealed("Int32StepsAndCodes", stepsAndCodes, v => (int)v, v => v);

        // Times in an order of their own keep frame of reference (ascending ones take Elias-Fano).
        WriteSealed("Int64Scattered", Enumerable.Range(0, 3_000).Select(i => 1_000_000_000L + (i * 2_654_435_761L % 1_000_003)).ToArray(), v => v, v => v);
        WriteSealedTimes();

        Assert.Equal(
            Enum.GetValues<SealedCodec>().Order(),
            _expected.Select(entry => _directory.File(entry.Key)).SelectMany(SealedCodecs.Of).Distinct().Order());
        (int exitCode, string output) = RunPython();

        Assert.True(exitCode == 0, output);
        Assert.Matches(@"test_fixtures \(test_listmmf\.FixtureTests\.test_fixtures\) \.\.\. ok", output);
    }

    [PythonFact]
    public void ThePythonReaderRefusesADamagedSealedBlockNamingIt()
    {
        string path = _directory.File("damaged.sealed.bt");
        using (var list = new ListMmf<int>(path))
        {
            list.AddRange(Enumerable.Range(0, 5_000).Select(i => i * 3).ToArray());
        }

        SealedListMmf.Seal(path);
        // Inside block 0's payload: 1,024 values of 12 bits after its 40-byte header.
        int damaged = ListMmfFileInfo.Read(path).ItemsOffset + 100;
        using (FileStream stream = File.OpenWrite(path))
        {
            stream.Position = damaged;
            stream.WriteByte(0x5A);
        }

        const string Reader = """
            import os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            try:
                listmmf.open_items(sys.argv[1])
                print("read")
            except listmmf.ListMmfError as error:
                print(error)
            """;
        var start = new ProcessStartInfo("python3") { WorkingDirectory = RepositoryFiles.Root, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (string arg in new[] { "-c", Reader, path })
        {
            start.ArgumentList.Add(arg);
        }

        using Process python = Process.Start(start)!;
        string line = python.StandardOutput.ReadToEnd().Trim();
        python.WaitForExit();

        Assert.Equal($"{path}: block 0 of 5 (items from 0) is damaged: its checksum does not match its bytes", line);
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

    /// <summary>
    /// 1,024 values that ascend from <paramref name="start"/> by <paramref name="ascent"/> steps, 1,024 that walk
    /// by up to two steps around <paramref name="middle"/>, 952 more that walk, then <paramref name="edges"/>; a step
    /// is <paramref name="unit"/>.
    /// </summary>
    private static TNumber[] Series<TNumber>(TNumber start, TNumber unit, TNumber middle, Func<int, int> ascent, TNumber[] edges)
        where TNumber : INumber<TNumber>
    {
        var random = new Random(7);
        var values = new List<TNumber>();
        for (int i = 0; i < 1_024; i++)
        {
            values.Add(start + (TNumber.CreateChecked(ascent(i)) * unit));
        }

        int walk = 0;
        for (int i = 0; i < 1_976; i++)
        {
            walk = Math.Clamp(walk + random.Next(-2, 3), -60, 60);
            values.Add(middle + (TNumber.CreateChecked(walk) * unit));
        }

        return [.. values, .. edges];
    }

    /// <summary><see cref="Series"/> of integers, one unit a step.</summary>
    private static Int128[] Integers(Int128 start, Int128 middle, Func<int, int> ascent, Int128[] edges) =>
        Series(start, Int128.One, middle, ascent, edges);

    private void WriteSealed<T, TNumber>(string name, TNumber[] series, Func<TNumber, T> convert, Func<T, JsonNode> json)
        where T : unmanaged
    {
        string path = _directory.File(name + ".sealed.bt");
        T[] values = series.Select(convert).ToArray();
        using (var list = new ListMmf<T>(path))
        {
            list.AddRange(values);
        }

        SealedListMmf.Seal(path);
        _expected[name + ".sealed.bt"] = new JsonObject
        {
            ["code"] = (int)DataTypeInfo.Of<T>().DataType,
            ["version"] = 3,
            ["values"] = new JsonArray(values.Select(json).ToArray()),
        };
    }

    /// <summary>3,000 trade sizes: <paramref name="usual"/> ones, and one in ten an <paramref name="outlier"/>.</summary>
    private static T[] Sizes<T>(Func<int, T> usual, Func<int, T> outlier) =>
        Enumerable.Range(0, 3_000).Select(i => i % 10 == 0 ? outlier(i) : usual(i)).ToArray();

    /// <summary>A sealed integer file of the narrowest code that holds <paramref name="values"/>, which is <paramref name="code"/>.</summary>
    private void WriteSealedSmallest(string name, long[] values, DataType code)
    {
        string path = _directory.File(name + ".sealed.bt");
        using (IntegerListMmf list = IntegerListMmf.OpenSmallest(path))
        {
            foreach (long value in values)
            {
                list.Add(value);
            }

            Assert.Equal(code, list.DataType);
        }

        SealedListMmf.Seal(path);
        _expected[name + ".sealed.bt"] = new JsonObject
        {
            ["code"] = (int)code,
            ["version"] = 3,
            ["values"] = new JsonArray(values.Select(value => (JsonNode)value).ToArray()),
        };
    }

    private void WriteSealedTimes()
    {
        DateTime[] times = Enumerable.Range(0, 3_000).Select(i => new DateTime(2024, 1, 2, 9, 30, 0).AddSeconds(i * 7 / 3)).ToArray();
        string secondsPath = _directory.File("UnixSeconds.sealed.bt");
        string ticksPath = _directory.File("DateTime.sealed.bt");
        using (var seconds = new ListMmfTimeSeriesDateTimeSeconds(secondsPath, TimeSeriesOrder.AscendingOrEqual))
        using (var ticks = new ListMmfTimeSeriesDateTime(ticksPath, TimeSeriesOrder.AscendingOrEqual))
        {
            seconds.AddRange(times);
            ticks.AddRange(times);
        }

        SealedListMmf.Seal(secondsPath);
        SealedListMmf.Seal(ticksPath);
        JsonObject Entry(DataType code, IEnumerable<long> raw) => new()
        {
            ["code"] = (int)code,
            ["version"] = 3,
            ["values"] = new JsonArray(raw.Select(value => (JsonNode)value).ToArray()),
            ["iso"] = new JsonArray(times.Select(time => (JsonNode)time.ToString("yyyy-MM-ddTHH:mm:ss", CultureInfo.InvariantCulture)).ToArray()),
        };
        _expected["UnixSeconds.sealed.bt"] = Entry(DataType.UnixSeconds, times.Select(t => (long)(t - DateTime.UnixEpoch).TotalSeconds));
        _expected["DateTime.sealed.bt"] = Entry(DataType.DateTime, times.Select(t => t.Ticks));
    }

    private void Write<T>(string name, T[] values, Func<T, JsonNode> json)
        where T : unmanaged
    {
        // Each type in both formats: version 1 as ListMmf 1.x writes it (its header's version field 0), and version 2.
        foreach ((ListMmfFormatVersion format, string suffix, int version) in new[] { (ListMmfFormatVersion.Version1, ".v1.bt", 1), (ListMmfFormatVersion.Version2, ".bt", 2) })
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

        // A python3 with numpy where there is one, so that the fixtures are read by the numpy path as well as the
        // standard library's (the first python3 on a PATH may have no numpy).
        var start = new ProcessStartInfo(PythonProcess.FirstThatImports("numpy") ?? "python3")
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
