using System;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Xunit;

namespace ListMmf.Tests;

/// <summary>Rules of the source's shape that no compiler checks.</summary>
public sealed partial class SourceShapeTests
{
    [Fact]
    public void NoLineOfTheLibraryOrTheToolIsLongerThanTheEditorConfigLimit()
    {
        Match setting = MaxLineLength().Match(File.ReadAllText(RepositoryFiles.Path(".editorconfig")));
        Assert.True(setting.Success, ".editorconfig sets no max_line_length");
        int limit = int.Parse(setting.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);

        string src = RepositoryFiles.Path("src");
        string[] longLines = Directory.EnumerateFiles(src, "*.cs", SearchOption.AllDirectories)
            .Where(file => !file.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !file.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .SelectMany(file => File.ReadLines(file).Select((line, index) => (File: file, Number: index + 1, line.Length)))
            .Where(line => line.Length > limit)
            .Select(line => $"{Path.GetRelativePath(src, line.File)}:{line.Number} ({line.Length} characters)")
            .ToArray();

        Assert.True(longLines.Length == 0, $"lines over {limit} characters:{Environment.NewLine}{string.Join(Environment.NewLine, longLines)}");
    }

    [GeneratedRegex(@"^\[\*\.cs\][^\[]*?^max_line_length\s*=\s*(\d+)", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex MaxLineLength();
}
