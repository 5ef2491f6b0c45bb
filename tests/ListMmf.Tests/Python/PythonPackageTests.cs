using System;
using System.IO;
using System.Linq;
using System.Text.Json.Nodes;
using Xunit;

namespace ListMmf.Tests.Python;

/// <summary>A fact that needs a Python importing every module named; without one it reports as skipped, naming them.</summary>
public sealed class PythonWithFactAttribute : FactAttribute
{
    public PythonWithFactAttribute(params string[] modules)
    {
        Python = PythonProcess.FirstThatImports(modules);
        if (Python is null)
        {
            Skip = $"needs a python3 that imports {string.Join(", ", modules)} (Debian: python3-pip, python3-numpy; Python 3.11 for tomllib)";
        }
    }

    public string? Python { get; }
}

/// <summary>The Python reader as a package installed from the repository, and struct files read through their description.</summary>
public sealed class PythonPackageTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>With pip alone: the package's own backend builds the wheel, so no setuptools or wheel package is needed.</summary>
    [PythonWithFact("pip", "tomllib")]
    public void ThePythonReaderInstallsFromTheRepositoryWithoutANetwork()
    {
        string python = PythonProcess.FirstThatImports("pip", "tomllib")!;

        // From a copy (its backend among it): pip builds in the source folder, and the tests run beside each other.
        string repository = RepositoryFiles.Path("src", "python");
        string source = _directory.File("python");
        foreach (string file in Directory.EnumerateFiles(repository, "*", SearchOption.AllDirectories)
            .Where(file => !file.Contains("__pycache__", StringComparison.Ordinal)))
        {
            string copy = Path.Combine(source, Path.GetRelativePath(repository, file));
            Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
            File.Copy(file, copy);
        }

        string target = _directory.File("installed");
        (int installed, string log) = PythonProcess.Run(
            python, ["-m", "pip", "install", "--no-build-isolation", "--no-index", "--target", target, source]);
        Assert.True(installed == 0, log);

        (int exitCode, string output) = PythonProcess.Run(
            python, ["-c", "import sys; sys.path.insert(0, sys.argv[1]); import listmmf; print(listmmf.__file__)", target]);
        Assert.True(exitCode == 0, output);
        Assert.Equal(Path.Combine(target, "listmmf.py"), output.Trim());
    }

    [PythonWithFact("numpy")]
    public void AStructFileIsReadFieldByFieldThroughItsDescription()
    {
        string path = _directory.File("quotes.bin");
        using (var quotes = new ListMmf<Quote>(path))
        {
            for (int i = 0; i < 3; i++)
            {
                quotes.Add(new Quote { Sequence = i, Bid = 4000 + (i * 0.25), Live = i == 1, Side = 'A' });
            }
        }

        const string Script = """
            import json, os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            items = listmmf.open_items(sys.argv[1])
            print(json.dumps({"names": list(items.dtype.names), "size": items.dtype.itemsize,
                "sequence": items["Sequence"].tolist(), "bid": items["Bid"].tolist(),
                "live": items["Live"].tolist(), "side": items["Side"].tolist()}))
            """;
        (int exitCode, string output) = PythonProcess.Run(PythonProcess.FirstThatImports("numpy")!, ["-c", Script, path]);

        Assert.True(exitCode == 0, output);
        JsonNode result = JsonNode.Parse(output)!;
        Assert.Equal(["Sequence", "Bid", "Live", "Side"], result["names"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(24, result["size"]!.GetValue<int>());
        Assert.Equal([0L, 1, 2], result["sequence"]!.AsArray().Select(n => n!.GetValue<long>()));
        Assert.Equal([4000, 4000.25, 4000.5], result["bid"]!.AsArray().Select(n => n!.GetValue<double>()));
        Assert.Equal([false, true, false], result["live"]!.AsArray().Select(n => n!.GetValue<bool>()));
        Assert.Equal(['A', 'A', 'A'], result["side"]!.AsArray().Select(n => (char)n!.GetValue<int>()));
    }

    public struct Quote
    {
        public long Sequence;
        public double Bid;
        public bool Live;
        public char Side;
    }
}
