using System;
using System.Globalization;
using System.IO;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>What the tool says reads the same on every machine, and names no C++ type.</summary>
public sealed class MessageTextTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void TimesInMessagesAreInTheInvariantCultureWhateverTheCurrentOne()
    {
        string csv = _directory.File("late.csv");
        File.WriteAllText(csv, "time,price\n2024-01-02T09:30:01,1\n2024-01-02T09:30:00,2\n");
        CultureInfo before = CultureInfo.CurrentCulture;
        var dotted = (CultureInfo)CultureInfo.InvariantCulture.Clone();
        dotted.DateTimeFormat.TimeSeparator = ".";
        ToolResult result;
        try
        {
            CultureInfo.CurrentCulture = dotted;
            result = ToolRunner.Run("import", "csv", csv, "--out", _directory.File("table"), "--time", "time", "--column", "price:double");
        }
        finally
        {
            CultureInfo.CurrentCulture = before;
        }

        Assert.Equal(1, result.ExitCode);
        Assert.Contains("(2024-01-02 09:30:00.0000000) is before the previous row's (2024-01-02 09:30:01.0000000)", result.Error);
    }

    [Fact]
    public void AFileThatIsNotParquetIsRefusedWithoutArrowsCppTypeNames()
    {
        string notParquet = _directory.File("ticks.parquet");
        File.WriteAllText(notParquet, "time,price\n2024-01-02T09:30:00,1\n");

        ToolResult result = ToolRunner.Run("import", "parquet", notParquet, "--out", _directory.File("table"));

        Assert.Equal(1, result.ExitCode);
        Assert.True(result.IsOneErrorLine, result.Error);
        Assert.DoesNotContain("N7parquet", result.Error);
        Assert.DoesNotContain("(message:", result.Error);
        Assert.Contains("is not a whole Parquet file", result.Error);
    }
}
