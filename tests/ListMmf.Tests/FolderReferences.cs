using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace ListMmf.Tests;

/// <summary>
/// Which folder of a project uses which: every name in the code (not in comments) is bound by the C# compiler, and a
/// name that means a type, or a member of one, declared in another folder of the project is a use of that folder.
/// A subfolder counts as its top folder (Storage/Platforms is Storage); files at the project's root are in ".".
/// </summary>
internal static class FolderReferences
{
    /// <summary>One folder's use of another, with the first file and type that shows it.</summary>
    internal readonly record struct Use(string From, string To, string Example);

    /// <summary>The uses between the folders of the C# sources under <paramref name="projectDirectory"/>.</summary>
    public static IReadOnlyList<Use> Of(string projectDirectory)
    {
        SyntaxTree[] trees = Directory.EnumerateFiles(projectDirectory, "*.cs", SearchOption.AllDirectories)
            .Where(file => !IsBuildOutput(projectDirectory, file))
            .Select(file => CSharpSyntaxTree.ParseText(
                File.ReadAllText(file), new CSharpParseOptions(LanguageVersion.Preview), path: file))
            .ToArray();
        CSharpCompilation compilation = CSharpCompilation.Create(
            "FolderReferences",
            trees,
            FrameworkReferences(),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, allowUnsafe: true));

        var uses = new Dictionary<(string From, string To), string>();
        foreach (SyntaxTree tree in trees)
        {
            string from = FolderOf(projectDirectory, tree.FilePath);
            SemanticModel model = compilation.GetSemanticModel(tree);
            foreach (SimpleNameSyntax name in tree.GetRoot().DescendantNodes().OfType<SimpleNameSyntax>())
            {
                if (TopLevelType(model.GetSymbolInfo(name)) is not { } type)
                {
                    continue;
                }

                foreach (SyntaxReference declaration in type.DeclaringSyntaxReferences)
                {
                    string to = FolderOf(projectDirectory, declaration.SyntaxTree.FilePath);
                    if (to != from)
                    {
                        uses.TryAdd((from, to), $"{Path.GetFileName(tree.FilePath)} uses {type.Name}");
                    }
                }
            }
        }

        return uses.Select(use => new Use(use.Key.From, use.Key.To, use.Value)).OrderBy(use => use.From).ThenBy(use => use.To).ToArray();
    }

    /// <summary>A cycle of folders that use each other, as "A -> B -> A", or null when there is none.</summary>
    public static string? FindCycle(IReadOnlyList<Use> uses)
    {
        ILookup<string, string> next = uses.ToLookup(use => use.From, use => use.To);
        var done = new HashSet<string>();
        var path = new List<string>();

        string? Visit(string folder)
        {
            int onPath = path.IndexOf(folder);
            if (onPath >= 0)
            {
                return string.Join(" -> ", path.Skip(onPath).Append(folder));
            }

            if (!done.Add(folder))
            {
                return null;
            }

            path.Add(folder);
            foreach (string to in next[folder])
            {
                if (Visit(to) is { } cycle)
                {
                    return cycle;
                }
            }

            path.RemoveAt(path.Count - 1);
            return null;
        }

        return uses.Select(use => use.From).Distinct().Select(Visit).FirstOrDefault(cycle => cycle is not null);
    }

    /// <summary>The type a name means, or whose member it means, as the outermost type that declares it.</summary>
    private static INamedTypeSymbol? TopLevelType(SymbolInfo info)
    {
        ISymbol? symbol = info.Symbol ?? info.CandidateSymbols.FirstOrDefault();
        INamedTypeSymbol? type = symbol as INamedTypeSymbol ?? symbol?.ContainingType;
        while (type?.ContainingType is { } outer)
        {
            type = outer;
        }

        return type?.OriginalDefinition;
    }

    private static string FolderOf(string projectDirectory, string file)
    {
        string relative = Path.GetRelativePath(projectDirectory, Path.GetDirectoryName(file)!);
        return relative == "." ? "." : relative.Split(Path.DirectorySeparatorChar)[0];
    }

    private static bool IsBuildOutput(string projectDirectory, string file) =>
        FolderOf(projectDirectory, file) is "bin" or "obj";

    /// <summary>
    /// The runtime's own assemblies, so that the framework's types bind; the project's packages are left out, and a
    /// name of theirs that does not bind is no use of a folder either way.
    /// </summary>
    private static MetadataReference[] FrameworkReferences() =>
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Where(assembly => Path.GetDirectoryName(assembly) == Path.GetDirectoryName(typeof(object).Assembly.Location))
            .Select(assembly => (MetadataReference)MetadataReference.CreateFromFile(assembly))
            .ToArray();
}
