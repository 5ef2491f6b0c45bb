using System;
using System.IO;
using System.Text.RegularExpressions;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// The README's quick start is tests/QuickStart/Program.cs word for word (CI builds and runs that project against
/// the package), and the guide's first example is this file's <see cref="Example"/>, word for word, and it runs.
/// Change one and the other must follow.
/// </summary>
public sealed partial class ReadmeExampleTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void ReadmeShowsTheQuickStartProgram()
    {
        string readme = File.ReadAllText(RepositoryFiles.Path("README.md"));
        string program = File.ReadAllText(RepositoryFiles.Path("tests", "QuickStart", "Program.cs"));

        string shown = QuickStartBlock().Match(readme).Groups["code"].Value;

        Assert.Contains("using ListMmf;", program, StringComparison.Ordinal);
        Assert.Equal(Normalize(program), Normalize(shown));
    }

    [Fact]
    public void GuideShowsTheExampleThatRunsHere()
    {
        string guide = File.ReadAllText(RepositoryFiles.Path("docs", "guide.md"));
        string source = File.ReadAllText(RepositoryFiles.Path("tests", "ListMmf.Tests", "ReadmeExampleTests.cs"));

        string shown = ExampleBlock().Match(guide).Groups["code"].Value;
        string tested = SourceRegion().Match(source).Groups["code"].Value;

        Assert.NotEqual("", tested);
        Assert.Equal(Normalize(tested), Normalize(shown));
    }

    [Fact]
    public void ReadmeExampleRuns()
    {
        string path = _directory.File("prices.bin");
        (long count, double last) = Example(path);
        Assert.Equal(3, count);
        Assert.Equal(4001.25, last);
    }

    private static (long Count, double Last) Example(string path)
    {
        // readme-example-start
        using (var prices = new ListMmf<double>(path))          // opens or creates; one writer per file
        {
            prices.Add(4000.25);
            prices.AddRange([4000.50, 4001.25]);
        }

        using var reader = new ListMmf<double>(path, FileAccess.Read); // any number of readers, any process
        long count = reader.Count;                              // 3
        double last = reader[count - 1];                        // 4001.25, straight from the mapping
        ReadOnlySpan<double> window = reader.AsSpan(0, (int)count);
        // readme-example-end
        Assert.Equal(count, window.Length);
        return (count, last);
    }

    /// <summary>Indentation differs between the README and the method body; the code must not.</summary>
    private static string Normalize(string code) =>
        string.Join('\n', code.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));

    [GeneratedRegex(@"<!-- quick-start -->\s*```csharp\r?\n(?<code>.*?)```", RegexOptions.Singleline)]
    private static partial Regex QuickStartBlock();

    [GeneratedRegex(@"<!-- readme-example -->\s*```csharp\r?\n(?<code>.*?)```", RegexOptions.Singleline)]
    private static partial Regex ExampleBlock();

    [GeneratedRegex(@"// readme-example-start\r?\n(?<code>.*?)\s*// readme-example-end", RegexOptions.Singleline)]
    private static partial Regex SourceRegion();
}
