using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ListMmf.Arrow;
using ListMmf.Tests.SharedFolder;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// Every export (CSV, Parquet, Arrow IPC) goes through one output door: it never writes over the data it is made
/// from, however the path reaches it, and never over a file nobody asked to replace.
/// </summary>
public sealed class ExportOutputTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public ExportOutputTests()
    {
        string csv = _directory.File("ticks.csv");
        File.WriteAllText(csv, "time,price,size\n2024-01-02T09:30:00,4500,25\n2024-01-02T09:30:01,4500.25,3\n");
        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", Table, "--time", "time", "--column", "price:double", "--column", "size:int");
        Assert.Equal(0, import.ExitCode);
    }

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string, string> FormatsAndTableNames()
    {
        var data = new TheoryData<string, string>();
        foreach (string format in new[] { "csv", "parquet", "arrow" })
        {
            foreach (string name in new[] { "time.mmf", "price.mmf", "table.json", "new.out", "" })
            {
                data.Add(format, name);
            }
        }

        return data;
    }

    private string Table => _directory.File("table");

    private static byte[][] Contents(string folder) => Directory.GetFiles(folder).Order().Select(File.ReadAllBytes).ToArray();

    /// <summary>Runs the export of <paramref name="format"/> into <paramref name="output"/>; returns the error, or null.</summary>
    private string? Export(string format, string output, bool force = false, string? source = null)
    {
        source ??= Table;
        if (format == "arrow")
        {
            try
            {
                using TimeSeriesTable table = TimeSeriesTable.Open(source, FileAccess.Read);
                table.WriteArrowFile(output, overwrite: force);
                return null;
            }
            catch (ListMmfException exception)
            {
                return exception.Message;
            }
        }

        string[] args = ["export", format, source, "--out", output];
        ToolResult result = ToolRunner.Run(force ? [.. args, "--force"] : args);
        Assert.True(result.ExitCode == 0 || result.IsOneErrorLine, result.Error);
        return result.ExitCode == 0 ? null : result.Error;
    }

    [Theory]
    [MemberData(nameof(FormatsAndTableNames))]
    public void AnOutputInTheTablesFolderIsRefusedAndTheTableIsUnchanged(string format, string name)
    {
        byte[][] before = Contents(Table);

        string? error = Export(format, Path.Combine(Table, name), force: true);

        Assert.NotNull(error);
        Assert.Contains("Nothing was written", error);
        Assert.Equal(before, Contents(Table));
    }

    [SymbolicLinkTheory]
    [MemberData(nameof(FormatsAndTableNames))]
    public void AnOutputThroughALinkToTheTablesFolderIsRefused(string format, string name)
    {
        string link = _directory.File("link");
        Directory.CreateSymbolicLink(link, Table);
        byte[][] before = Contents(Table);

        string? error = Export(format, Path.Combine(link, name), force: true);

        Assert.NotNull(error);
        Assert.Equal(before, Contents(Table));
    }

    [SymbolicLinkTheory]
    [InlineData("csv")]
    [InlineData("parquet")]
    [InlineData("arrow")]
    public void AnOutputThatIsALinkToATableFileIsRefused(string format)
    {
        string link = _directory.File("out.link");
        File.CreateSymbolicLink(link, Path.Combine(Table, "price.mmf"));
        byte[][] before = Contents(Table);

        string? error = Export(format, link, force: true);

        Assert.NotNull(error);
        Assert.Contains("is the exported file", error);
        Assert.Equal(before, Contents(Table));
    }

    [Theory]
    [InlineData("price.mmf")]
    [InlineData("price.mmf.lock")]
    [InlineData("price.mmf.listmmf.tmp")]
    public void ACsvExportOfAFileIntoItselfOrItsSidecarsIsRefused(string name)
    {
        string single = _directory.File("price.mmf");
        File.Copy(Path.Combine(Table, "price.mmf"), single);
        byte[] before = File.ReadAllBytes(single);

        string? error = Export("csv", _directory.File(name), force: true, source: single);

        Assert.NotNull(error);
        Assert.Equal(before, File.ReadAllBytes(single));
        Assert.False(File.Exists(_directory.File(name)) && name != "price.mmf", "a sidecar name was written");
    }

    [Theory]
    [InlineData("csv")]
    [InlineData("parquet")]
    [InlineData("arrow")]
    public void AnExistingOutputIsRefusedUnlessReplacingWasAsked(string format)
    {
        string output = _directory.File("existing.out");
        File.WriteAllText(output, "keep me");

        string? refused = Export(format, output);

        Assert.NotNull(refused);
        Assert.Contains(format == "arrow" ? "overwrite: true" : "--force", refused);
        Assert.Equal("keep me", File.ReadAllText(output));
    }

    [Theory]
    [InlineData("csv")]
    [InlineData("parquet")]
    [InlineData("arrow")]
    public void AnExistingOutputIsReplacedWhenAsked(string format)
    {
        string output = _directory.File("existing.out");
        File.WriteAllText(output, "replace me");

        Assert.Null(Export(format, output, force: true));

        Assert.NotEqual("replace me", File.ReadAllText(output));
        Assert.Equal([output], Directory.GetFiles(_directory.Path, "existing.out*"));
    }

    [SymbolicLinkTheory]
    [InlineData("csv")]
    [InlineData("parquet")]
    [InlineData("arrow")]
    public void ADanglingLinkAtTheOutputIsAnExistingOutput(string format)
    {
        string output = _directory.File("dangling.out");
        string target = _directory.File("nowhere");
        File.CreateSymbolicLink(output, target);

        Assert.NotNull(Export(format, output));

        Assert.False(File.Exists(target), "the export wrote through the link");
    }
}
