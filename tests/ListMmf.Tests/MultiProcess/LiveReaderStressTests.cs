using System;
using System.Globalization;
using System.IO;
using System.Linq;
using Xunit;
using Xunit.Abstractions;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// Reader processes open, search and refresh files that a writer process grows through hundreds of growths: a
/// healthy, growing file must never be reported as damaged, and no reader may see a wrong item. The figures are
/// written to the test output and, when LISTMMF_STRESS_REPORT names a file, appended to it (CI prints it). It runs
/// alone: its processes take both cores.
/// </summary>
[Collection(nameof(LiveReaderStressTests))]
public sealed class LiveReaderStressTests : IDisposable
{
    private static readonly TimeSpan Duration = TimeSpan.FromSeconds(15);
    private readonly TempDirectory _directory = new();
    private readonly ITestOutputHelper _output;

    public LiveReaderStressTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void ReadersBesideAGrowingFileSeeNoFalseErrorAndNoWrongItem()
    {
        string path = _directory.File("stress.bin");
        string seconds = Duration.TotalSeconds.ToString(CultureInfo.InvariantCulture);
        using var writer = ChildProcess.Start("stress-write", path, seconds);
        var readers = Enumerable.Range(0, 2).Select(_ => ChildProcess.Start("stress-read", path, seconds)).ToList();
        try
        {
            TimeSpan deadline = Duration + TimeSpan.FromSeconds(60);
            Assert.Equal(0, writer.WaitForExit(deadline));
            string writerLine = writer.ReadLine() ?? "";
            long opens = 0, refreshes = 0, falseErrors = 0, wrongItems = 0;
            string report = $"live-reader stress, {Duration.TotalSeconds:0} s: writer {writerLine}";
            foreach (ChildProcess reader in readers)
            {
                Assert.Equal(0, reader.WaitForExit(deadline));
                string line = reader.ReadLine() ?? "";
                string? firstError = reader.ReadLine();
                report += $"{Environment.NewLine}  reader {line}{(firstError is null ? "" : " " + firstError)}";
                opens += StressReport.Figure(line, "opens");
                refreshes += StressReport.Figure(line, "refreshes");
                falseErrors += StressReport.Figure(line, "falseErrors");
                wrongItems += StressReport.Figure(line, "wrongItems");
            }

            report += $"{Environment.NewLine}  total: {opens + refreshes:N0} opens and refreshes, {falseErrors} false errors, {wrongItems} wrong items";
            StressReport.Publish(_output, report);
            Assert.True(StressReport.Figure(writerLine, "growths") >= 100, $"the writer grew the file only {writerLine}");
            Assert.True(falseErrors == 0, report);
            Assert.True(wrongItems == 0, report);
            // Under Wine a process opens and maps files several times slower than on Linux.
            long enough = OperatingSystem.IsWindows() ? 10_000 : 100_000;
            Assert.True(opens + refreshes >= enough, $"only {opens + refreshes:N0} opens and refreshes: {report}");
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
