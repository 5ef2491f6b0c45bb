using System;
using System.Collections.Generic;
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

    /// <summary>
    /// Code that differs between systems lives in the storage platforms (one class per system, chosen once): a branch
    /// on the system anywhere else in the library, the tool or ListMmf.Arrow is a rule of a system stated where no one
    /// looking at that system's class finds it.
    /// </summary>
    [Fact]
    public void NoBranchOnTheOperatingSystemIsOutsideThePlatformClasses()
    {
        string src = RepositoryFiles.Path("src");
        string platforms = Path.Combine("ListMmf", "Storage", "Platforms") + Path.DirectorySeparatorChar;
        string[] branches = Directory.EnumerateFiles(src, "*.cs", SearchOption.AllDirectories)
            .Select(file => Path.GetRelativePath(src, file))
            .Where(file => !file.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj") && !file.StartsWith(platforms, StringComparison.Ordinal))
            .SelectMany(file => File.ReadLines(Path.Combine(src, file)).Select((line, index) => (File: file, Number: index + 1, Line: line)))
            .Where(line => OperatingSystemBranch().IsMatch(line.Line))
            .Select(line => $"{line.File}:{line.Number}: {line.Line.Trim()}")
            .ToArray();

        Assert.True(branches.Length == 0, $"branches on the operating system outside {platforms}:{Environment.NewLine}{string.Join(Environment.NewLine, branches)}");
    }

    /// <summary>
    /// The library's folders from the bottom layer up. A folder may use the folders of the layers below its own and
    /// nothing else, so that no two folders use each other, however indirectly.
    /// </summary>
    private static readonly string[][] LibraryLayers =
    [
        ["Exceptions"],
        ["Interop"],
        ["Format", "Hashing"],
        ["Storage"],
        ["."], // ListMmf<T> and the interfaces of a list, at the project's root
        ["Search"],
        ["Bits", "Integers", "TimeSeries"],
        ["Sealed"], // the finished form of a list or a series: a sealed series is searched by time as the series is
        ["FileReaders"],
        ["Tables"],
        ["Catalog"], // many instruments' tables, each an ordinary table
    ];

    [Fact]
    public void EachFolderOfTheLibraryUsesOnlyTheLayersBelowIt()
    {
        IReadOnlyList<FolderReferences.Use> uses = FolderReferences.Of(RepositoryFiles.Path("src", "ListMmf"));
        var layerOf = LibraryLayers.SelectMany((folders, layer) => folders.Select(folder => (folder, layer)))
            .ToDictionary(entry => entry.folder, entry => entry.layer);

        string[] unplaced = uses.SelectMany(use => new[] { use.From, use.To }).Distinct().Where(folder => !layerOf.ContainsKey(folder)).ToArray();
        Assert.True(unplaced.Length == 0, $"folders in no layer of {nameof(LibraryLayers)}: {string.Join(", ", unplaced)}");

        string[] upward = uses.Where(use => layerOf[use.To] >= layerOf[use.From])
            .Select(use => $"{use.From} uses {use.To} ({use.Example})")
            .ToArray();
        Assert.True(upward.Length == 0, $"uses of a layer beside or above:{Environment.NewLine}{string.Join(Environment.NewLine, upward)}");
    }

    [Theory]
    [InlineData("ListMmf.Arrow")]
    [InlineData("ListMmf.Tool")]
    public void NoTwoFoldersOfAProjectUseEachOther(string project)
    {
        IReadOnlyList<FolderReferences.Use> uses = FolderReferences.Of(RepositoryFiles.Path("src", project));

        string? cycle = FolderReferences.FindCycle(uses);

        Assert.True(cycle is null, $"folders that use each other: {cycle}{Environment.NewLine}{string.Join(Environment.NewLine, uses)}");
    }

    [Fact]
    public void AFolderCycleIsFound()
    {
        using var project = new TempDirectory();
        Directory.CreateDirectory(project.File("Lower"));
        Directory.CreateDirectory(project.File("Upper"));
        File.WriteAllText(project.File(Path.Combine("Lower", "Cell.cs")), "namespace N; internal sealed class Cell { public Grid? Owner; }");
        File.WriteAllText(project.File(Path.Combine("Upper", "Grid.cs")), "namespace N; internal sealed class Grid { public Cell? First; }");

        IReadOnlyList<FolderReferences.Use> uses = FolderReferences.Of(project.Path);

        Assert.Equal(["Lower -> Upper", "Upper -> Lower"], uses.Select(use => $"{use.From} -> {use.To}"));
        Assert.Equal("Lower -> Upper -> Lower", FolderReferences.FindCycle(uses));
    }

    /// <summary>
    /// The library opens and creates files by name in one door: the storage platforms (which open existing files
    /// through no link another user planted, and only regular files) and <c>ExclusiveFile</c> (which creates a name
    /// that did not exist). A file opened by name anywhere else would skip those rules; a handle the door gave may be
    /// wrapped anywhere.
    /// </summary>
    [Fact]
    public void NoFileIsOpenedOrCreatedByNameOutsideTheFileDoor()
    {
        string library = RepositoryFiles.Path(Path.Combine("src", "ListMmf"));
        string platforms = Path.Combine("Storage", "Platforms") + Path.DirectorySeparatorChar;
        string exclusive = Path.Combine("Storage", "ExclusiveFile.cs");
        string[] opens = Directory.EnumerateFiles(library, "*.cs", SearchOption.AllDirectories)
            .Select(file => Path.GetRelativePath(library, file))
            .Where(file => !file.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj")
                && !file.StartsWith(platforms, StringComparison.Ordinal) && file != exclusive)
            .SelectMany(file => File.ReadLines(Path.Combine(library, file)).Select((line, index) => (File: file, Number: index + 1, Line: line)))
            .Where(line => !line.Line.TrimStart().StartsWith("//", StringComparison.Ordinal) && OpenByName().IsMatch(line.Line))
            .Select(line => $"{line.File}:{line.Number}: {line.Line.Trim()}")
            .ToArray();

        Assert.True(opens.Length == 0, $"files opened or created by name outside the door:{Environment.NewLine}{string.Join(Environment.NewLine, opens)}");
    }

    [Theory]
    [InlineData("using var stream = File.OpenRead(path);")]
    [InlineData("File.WriteAllBytes(path, bytes);")]
    [InlineData("var stream = new FileStream(path, FileMode.Open);")]
    [InlineData("SafeFileHandle handle = File.OpenHandle(path);")]
    [InlineData("var info = new FileInfo(path).Open(FileMode.Open);")]
    public void TheFileDoorRuleFindsEachWayOfOpeningByName(string line) => Assert.Matches(OpenByName(), line);

    [Theory]
    [InlineData("return new FileStream(handle, access, bufferSize: 0);")]
    [InlineData("_stream = new FileStream(ListMmfStorage.OpenExisting(Path, FileAccess.Read, FileOptions.None), FileAccess.Read);")]
    [InlineData("map = MemoryMappedFile.CreateFromFile(File, mapName: null, capacity: 0, access);")]
    [InlineData("bool link = new FileInfo(path).LinkTarget is not null;")]
    public void TheFileDoorRuleLetsAHandleFromTheDoorBeWrapped(string line) => Assert.DoesNotMatch(OpenByName(), line);

    [GeneratedRegex(@"\bFile\.(Open\w*|Create\w*|ReadAll\w*|WriteAll\w*|AppendAll\w*|ReadLines)\(|new FileStream\((?!handle\b|ListMmfStorage\.OpenExisting\()|new FileInfo\([^)]*\)\.(Open|Create)")]
    private static partial Regex OpenByName();

    [GeneratedRegex(@"OperatingSystem\.Is[A-Z]|RuntimeInformation\.IsOSPlatform|OSPlatform\.(Windows|Linux|OSX|FreeBSD)")]
    private static partial Regex OperatingSystemBranch();

    [GeneratedRegex(@"^\[\*\.cs\][^\[]*?^max_line_length\s*=\s*(\d+)", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex MaxLineLength();
}
