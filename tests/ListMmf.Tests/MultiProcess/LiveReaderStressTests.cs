using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using Xunit;
using Xunit.Abstractions;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// Reader processes open, search and refresh files that a writer process grows through hundreds of growths: a
/// healthy, growing file must never be reported as damaged, and no reader may see a wrong item. It runs to a count of
/// opens, not for a time, so a loaded machine makes it longer, never red; the deadline is there for a hang only. The
/// figures are written to the test output and, when LISTMMF_STRESS_REPORT names a file, appended to it (CI prints
/// it). It runs alone: its processes take both cores.
/// </summary>
[Collection(nameof(LiveReaderStressTests))]
public sealed class LiveReaderStressTests : IDisposable
{
    private const int Readers = 2;

    /// <summary>Each reader follows the writer to this generation at least: six growths each, so 120 growths.</summary>
    private const int Generations = 20;

    private static readonly TimeSpan HangDeadline = TimeSpan.FromMinutes(10);
    private readonly TempDirectory _directory = new();
    private readonly ITestOutputHelper _output;

    public LiveReaderStressTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _directory.Dispose();

    /// <summary>Opens and refreshes per reader; fewer under Wine, where a process opens and maps a file several times slower.</summary>
    private static long OpensPerReader => OperatingSystem.IsWindows() ? 5_000 : 50_000;

    [Fact]
    public void ReadersBesideAGrowingFileSeeNoFalseErrorAndNoWrongItem()
    {
        string path = _directory.File("stress.bin");
        using var writer = ChildProcess.Start("stress-write", path);
        var readers = Enumerable.Range(0, Readers)
            .Select(_ => ChildProcess.Start(
                "stress-read",
                path,
                OpensPerReader.ToString(CultureInfo.InvariantCulture),
                Generations.ToString(CultureInfo.InvariantCulture)))
            .ToList();
        try
        {
            var clock = Stopwatch.StartNew();
            long opens = 0, refreshes = 0, falseErrors = 0, wrongItems = 0;
            string report = "";
            foreach (ChildProcess reader in readers)
            {
                Assert.Equal(0, reader.WaitForExit(HangDeadline));
                string line = reader.ReadLine() ?? "";
                string? firstError = reader.ReadLine();
                report += $"{Environment.NewLine}  reader {line}{(firstError is null ? "" : " " + firstError)}";
                opens += StressReport.Figure(line, "opens");
                refreshes += StressReport.Figure(line, "refreshes");
                falseErrors += StressReport.Figure(line, "falseErrors");
                wrongItems += StressReport.Figure(line, "wrongItems");
            }

            writer.WriteLine("stop");
            Assert.Equal(0, writer.WaitForExit(HangDeadline));
            string writerLine = writer.ReadLine() ?? "";
            report = $"live-reader stress, {clock.Elapsed.TotalSeconds:0} s: writer {writerLine}{report}"
                + $"{Environment.NewLine}  total: {opens + refreshes:N0} opens and refreshes, {falseErrors} false errors, {wrongItems} wrong items";
            StressReport.Publish(_output, report);
            Assert.True(StressReport.Figure(writerLine, "growths") >= 100, $"the writer grew the file only {writerLine}");
            Assert.True(falseErrors == 0, report);
            Assert.True(wrongItems == 0, report);
            Assert.True(opens + refreshes >= Readers * OpensPerReader, $"the readers stopped short: {report}");
        }
        finally
        {
            readers.ForEach(reader => reader.Dispose());
        }
    }
}

/// <summary>The stress test's collection: it does not run beside the other test classes.</summary>
[CollectionDefinition(nameof(LiveReaderStressTests), DisableParallelization = true)]
public sealed class RunsAlone
{
}
