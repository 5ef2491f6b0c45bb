using System;
using System.Buffers.Binary;
using System.IO;
using System.Text;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>
/// The tool is as strict as the library with what another user may have written (issue 63): a struct file whose count
/// overflows its item bytes, and a CSV field of megabytes in a refusal.
/// </summary>
public sealed class HostileToolInputTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>
    /// A version 1 struct file counting 2^62 items of 192 bytes: the product wrapped (to 0 bytes), so verify said OK
    /// and export wrote zeros without end before.
    /// </summary>
    [Fact]
    public void AStructFileWhoseCountOverflowsItsBytesIsRefused()
    {
        string path = _directory.File("quotes.bt");
        using (var list = new ListMmf<Quote192>(path, FileAccess.ReadWrite, ListMmfOptions.Default with { FormatVersion = ListMmfFormatVersion.Version1 }))
        {
            list.Add(default);
        }

        using (FileStream file = File.OpenWrite(path))
        {
            Span<byte> count = stackalloc byte[sizeof(long)];
            BinaryPrimitives.WriteInt64LittleEndian(count, 1L << 62);
            file.Position = 8;
            file.Write(count);
        }

        ToolResult verify = ToolRunner.Run("verify", path);
        ToolResult head = ToolRunner.Run("head", path, "-n", "2");

        Assert.NotEqual(0, verify.ExitCode);
        Assert.Equal(1, head.ExitCode);
        Assert.Contains("the file is damaged", head.Error, StringComparison.Ordinal);
    }

    /// <summary>
    /// A line of 80 MB: refused before it is read whole (a 400 MB field took 5.3 GB before, most of it the message
    /// that quoted it).
    /// </summary>
    [Fact]
    public void ALineLongerThanAnyRowIsRefusedBeforeItIsRead()
    {
        string csv = _directory.File("ticks.csv");
        using (var writer = new StreamWriter(csv, append: false, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false)))
        {
            writer.Write("time,price\n1704187800,4500.25\n1704187801,");
            writer.Write(new string('9', 80_000_000));
            writer.Write("\n1704187802,4500.5\n");
        }

        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", _directory.File("table"), "--time", "time", "--column", "price:double");

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("longer than 64 MiB", import.Error, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_directory.File("table")));
    }

    /// <summary>A field of a megabyte that is not a number: the refusal quotes its start and says its length, not all of it.</summary>
    [Fact]
    public void ARefusalQuotesAtMostTheStartOfAHugeField()
    {
        string csv = _directory.File("ticks.csv");
        File.WriteAllText(csv, $"time,price\n1704187800,{new string('x', 1_000_000)}\n", new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));

        ToolResult import = ToolRunner.Run("import", "csv", csv, "--out", _directory.File("table"), "--time", "time", "--column", "price:double");

        Assert.Equal(1, import.ExitCode);
        Assert.Contains("(1,000,000 bytes)", import.Error, StringComparison.Ordinal);
        Assert.True(import.Error.Length < 1_000, $"the message is {import.Error.Length:N0} characters long");
    }
}
