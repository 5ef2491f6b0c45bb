using System;
using System.Linq;
using Xunit;
using Xunit.Abstractions;

namespace ListMmf.Tests.MultiProcess;

/// <summary>
/// A writer process replaces its integer file while reader processes read it: widening at every step from Byte to
/// Int64, and TruncateBeginning over and over. The readers reopen on the writer's mark and must never read a wrong
/// value (one file's bytes read as another width would be one). Runs alone: its processes take both cores.
/// </summary>
[Collection(nameof(LiveReaderStressTests))]
public sealed class ReplacementMultiProcessTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(10);
    private readonly TempDirectory _directory = new();
    private readonly ITestOutputHelper _output;

    public ReplacementMultiProcessTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void ReadersFollowEveryWideningWithoutAWrongValue()
    {
        (string writerLine, string[] readerLines) = Run("int-widen", "widen");

        StressReport.Publish(_output, $"widening: writer {writerLine}{string.Concat(readerLines.Select(line => $"{Environment.NewLine}  reader {line}"))}");
        Assert.Contains("codes=Byte,UInt16,UInt24,UInt32,UInt40,UInt48,UInt56,Int64", writerLine);
        Assert.All(readerLines, line => Assert.Equal(0, StressReport.Figure(line, "wrong")));
        Assert.True(readerLines.Sum(line => StressReport.Figure(line, "reopenings")) >= 2, "the readers never met a widening");
    }

    [Fact]
    public void ReadersFollowEveryTruncateBeginningWithoutAWrongValue()
    {
        (string writerLine, string[] readerLines) = Run("int-truncate", "truncate");

        StressReport.Publish(_output, $"truncate beginning: writer {writerLine}{string.Concat(readerLines.Select(line => $"{Environment.NewLine}  reader {line}"))}");
        Assert.Contains($"truncations={ListMmf.TestHost.Integers.TruncateRounds}", writerLine);
        Assert.All(readerLines, line => Assert.Equal(0, StressReport.Figure(line, "wrong")));
    }

    [Fact]
    public void TimeSeriesReadersFollowEveryTruncateBeginningWithoutAStaleTime()
    {
        (string writerLine, string[] readerLines) = Run("series-truncate", null);

        StressReport.Publish(_output, $"series truncate beginning: writer {writerLine}{string.Concat(readerLines.Select(line => $"{Environment.NewLine}  reader {line}"))}");
        Assert.Contains($"truncations={ListMmf.TestHost.SeriesTruncation.Rounds}", writerLine);
        Assert.All(readerLines, line => Assert.Equal(0, StressReport.Figure(line, "wrong")));
    }

    /// <summary>
    /// Starts the writer, then two readers (int-read KIND, or series-read when KIND is null), lets the writer go once
    /// both are open, and stops the readers once the writer is done; each reader makes at least
    /// <see cref="ListMmf.TestHost.Integers.MinimumReads"/> reads first, however it was scheduled.
    /// </summary>
    private (string WriterLine, string[] ReaderLines) Run(string writerCommand, string? kind)
    {
        string path = _directory.File("values.bt");
        using var writer = ChildProcess.Start(writerCommand, path);
        Assert.Equal("created", writer.ReadLine());
        var readers = Enumerable.Range(0, 2)
            .Select(_ => kind is null ? ChildProcess.Start("series-read", path) : ChildProcess.Start("int-read", path, kind))
            .ToList();
        try
        {
            Assert.All(readers, reader => Assert.Equal("open", reader.ReadLine()));
            writer.WriteLine("go");
            Assert.Equal(0, writer.WaitForExit(Deadline));
            string writerLine = writer.ReadLine() ?? "";
            readers.ForEach(reader => reader.WriteLine("stop"));
            string[] readerLines = readers.Select(reader =>
            {
                int exit = reader.WaitForExit(Deadline);
                string line = reader.ReadLine() ?? "";
                Assert.True(exit == 0, $"reader exited with {exit}: {line} {reader.ErrorText()}");
                return line;
            }).ToArray();
            return (writerLine, readerLines);
        }
        finally
        {
            readers.ForEach(reader => reader.Dispose());
        }
    }
}
