using System;
using System.Collections.Generic;
using System.Text;
using ListMmf.Tool.Csv;
using Xunit;

namespace ListMmf.Tests.Tool;

/// <summary>Reading a plain chunk by its separators gives the lines, field counts and field ranges that reading it line by line gives.</summary>
public sealed class CsvLineReaderTests
{
    [Theory]
    [InlineData("")]
    [InlineData("\n")]
    [InlineData("a")]
    [InlineData(",")]
    [InlineData("1,2,3")]
    [InlineData("1,2,3\n")]
    [InlineData("1,2,3\n\n4,5\n,,\n")]
    [InlineData("1,,3\n4")]
    public void APlainChunkReadsAlikeBothWays(string text) => AssertAlike(Encoding.ASCII.GetBytes(text));

    [Fact]
    public void RandomPlainChunksReadAlikeBothWays()
    {
        var random = new Random(7);
        for (int n = 0; n < 2_000; n++)
        {
            var text = new StringBuilder();
            int lines = random.Next(0, 40);
            for (int l = 0; l < lines; l++)
            {
                int fields = random.Next(0, 7);
                for (int f = 0; f < fields; f++)
                {
                    text.Append(f > 0 ? "," : "").Append('7', random.Next(0, random.Next(2) == 0 ? 4 : 100));
                }

                text.Append(l < lines - 1 || random.Next(2) == 0 ? "\n" : "");
            }

            byte[] bytes = Encoding.ASCII.GetBytes(text.ToString());
            Assert.True(CsvLineReader.HasSeparatorsOnly(bytes));
            AssertAlike(bytes);
        }
    }

    [Theory]
    [InlineData("1,2\r\n3,4\r\n")]
    [InlineData("1,\"2\"\n")]
    public void AChunkWithAQuoteOrAReturnIsNotPlain(string text) =>
        Assert.False(CsvLineReader.HasSeparatorsOnly(Encoding.ASCII.GetBytes(text)));

    private static void AssertAlike(byte[] bytes)
    {
        List<string> bySeparators = Read(bytes, separatorsOnly: true);
        List<string> bySearch = Read(bytes, separatorsOnly: false);
        Assert.Equal(bySearch, bySeparators);
    }

    /// <summary>Each line as its text, its field count and its first three fields' texts (where it has them).</summary>
    private static List<string> Read(byte[] bytes, bool separatorsOnly)
    {
        var lines = new List<string>();
        var reader = new CsvLineReader(bytes, separatorsOnly);
        Span<Range> fields = stackalloc Range[3];
        while (reader.Next(fields, out ReadOnlySpan<byte> line, out int fieldCount, out bool plain))
        {
            Assert.True(plain);
            string text = Encoding.ASCII.GetString(line);
            int shown = line.IsEmpty ? 0 : Math.Min(fieldCount, fields.Length);
            var fieldTexts = new StringBuilder();
            for (int f = 0; f < shown; f++)
            {
                fieldTexts.Append(f > 0 ? "|" : "").Append(text[fields[f]]);
            }

            lines.Add($"'{text}' {(line.IsEmpty ? 0 : fieldCount)} [{fieldTexts}]");
        }

        return lines;
    }
}
