using System;
using System.IO;
using System.Linq;
using System.Text.Json;
using ListMmf.Benchmarks;
using Xunit;

namespace ListMmf.Tests.Console;

/// <summary>
/// The benchmark console's commands on small datasets, and its answers to bad input: one line on standard error
/// and a non-zero exit, never a stack trace, never a dataset left half-written or silently replaced.
/// </summary>
public sealed class BenchmarkConsoleTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly string? _previousDataDirectory = Environment.GetEnvironmentVariable("LISTMMF_DATA_DIR");

    public BenchmarkConsoleTests() => Environment.SetEnvironmentVariable("LISTMMF_DATA_DIR", _directory.Path);

    public void Dispose()
    {
        Environment.SetEnvironmentVariable("LISTMMF_DATA_DIR", _previousDataDirectory);
        _directory.Dispose();
    }

    [Fact]
    public void UnknownCommandIsOneLineAndExitCode2()
    {
        (int exit, string error, _) = Run("frobnicate");
        Assert.Equal(2, exit);
        Assert.Single(Lines(error));
        Assert.Contains("unknown command 'frobnicate'", error, StringComparison.Ordinal);
    }

    [Fact]
    public void UnknownOptionIsOneLineAndExitCode2()
    {
        (int exit, string error, _) = Run("quick", "--elementz", "5");
        Assert.Equal(2, exit);
        Assert.Single(Lines(error));
        Assert.Contains("--elementz", error, StringComparison.Ordinal);
    }

    [Fact]
    public void ElementsThatAreNotACountAreRefused()
    {
        (int exit, string error, _) = Run("dataset", "--elements", "lots");
        Assert.Equal(2, exit);
        Assert.Contains("--elements must be a whole number", error, StringComparison.Ordinal);
    }

    [Fact]
    public void DatasetIsGeneratedOnceThenReusedWithTheSameHash()
    {
        int exit = Run("dataset", "--elements", "1000000").Exit;
        Assert.Equal(0, exit);
        string path = Path.Combine(_directory.Path, "mes-timestamps-1000000.bt");
        DateTime written = File.GetLastWriteTimeUtc(path);

        (exit, _, string second) = Run("dataset", "--elements", "1000000");
        Assert.Equal(0, exit);
        Assert.Equal(written, File.GetLastWriteTimeUtc(path));
        Assert.Contains("XXH3 0a220c0c5c48b28d (matches the expected hash)", second, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(_directory.Path, "*.partial*"));
    }

    [Fact]
    public void TruncatedDatasetIsReportedAndLeftForTheUserToDelete()
    {
        Assert.Equal(0, Run("dataset", "--elements", "5000").Exit);
        string path = Path.Combine(_directory.Path, "mes-timestamps-5000.bt");
        using (var file = new FileStream(path, FileMode.Open))
        {
            file.SetLength(16 + 4_000);
        }

        (int exit, string error, _) = Run("dataset", "--elements", "5000");
        Assert.Equal(1, exit);
        Assert.Single(Lines(error));
        Assert.Contains("delete it to regenerate", error, StringComparison.Ordinal);
        Assert.Equal(16 + 4_000, new FileInfo(path).Length);
    }

    [Fact]
    public void DatasetWithAWrongHashIsReported()
    {
        Assert.Equal(0, Run("dataset", "--elements", "1000000").Exit);
        string path = Path.Combine(_directory.Path, "mes-timestamps-1000000.bt");
        using (var file = new FileStream(path, FileMode.Open))
        {
            file.Position = 16 + (4 * 500_000);
            file.WriteByte(0x7F);
        }

        (int exit, string error, _) = Run("dataset", "--elements", "1000000");
        Assert.Equal(1, exit);
        Assert.Contains("expected 0a220c0c5c48b28d", error, StringComparison.Ordinal);
    }

    [Fact]
    public void QuickWritesAgreeingResultsForEveryImplementationAndQuerySet()
    {
        string json = _directory.File("quick.json");
        string svg = _directory.File("quick.svg");
        int exit = Run("quick", "--elements", "20000", "--rounds", "2", "--json", json, "--svg", svg).Exit;
        Assert.Equal(0, exit);

        using JsonDocument document = JsonDocument.Parse(File.ReadAllText(json));
        JsonElement[] rows = document.RootElement.EnumerateArray().ToArray();
        Assert.Equal(22, rows.Length); // 11 implementations (the sealed copy's search among them), 2 query sets
        foreach (string set in new[] { "fixed", "fresh" })
        {
            JsonElement[] ofSet = rows.Where(r => r.GetProperty("querySet").GetString() == set).ToArray();
            Assert.Equal(11, ofSet.Length);
            Assert.Single(ofSet.Select(r => r.GetProperty("resultsHash").GetString()).Distinct());
            Assert.All(ofSet, r => Assert.True(r.GetProperty("nsPerSearch").GetDouble() > 0));
            Assert.Equal(1.0, ofSet.Single(r => r.GetProperty("name").GetString() == "mmap (Posix)").GetProperty("ratioVsMmap").GetDouble());
        }

        Assert.StartsWith("<svg", File.ReadAllText(svg), StringComparison.Ordinal);
    }

    private static string[] Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries);

    /// <summary>Runs the console in-process; returns its exit code, standard error and standard output.</summary>
    private static (int Exit, string Error, string Output) Run(params string[] args)
    {
        TextWriter error = System.Console.Error;
        TextWriter output = System.Console.Out;
        using var capturedError = new StringWriter();
        using var capturedOutput = new StringWriter();
        System.Console.SetError(capturedError);
        System.Console.SetOut(capturedOutput);
        try
        {
            return (Program.Main(args), capturedError.ToString(), capturedOutput.ToString());
        }
        finally
        {
            System.Console.SetError(error);
            System.Console.SetOut(output);
        }
    }
}
