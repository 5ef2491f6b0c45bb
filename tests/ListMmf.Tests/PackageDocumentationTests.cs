using System;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Xml.Linq;
using Xunit;

namespace ListMmf.Tests;

/// <summary>The XML documentation the packages ship documents their public API and nothing internal.</summary>
public sealed class PackageDocumentationTests
{
    [Theory]
    [InlineData(typeof(ListMmf<int>), "T:ListMmf.ListMmf`1")]
    [InlineData(typeof(ListMmf.Arrow.ArrowTimeColumn), "T:ListMmf.Arrow.ArrowTimeColumn")]
    public void APackagesDocumentationNamesOnlyTypesVisibleOutsideIt(Type publicType, string documentedType)
    {
        Assembly assembly = publicType.Assembly;
        string[] ids = DocumentedIds(assembly);

        Assert.Contains(documentedType, ids);
        string[] hidden = ids.Where(id => Resolve(assembly, TypeOf(id)) is not { IsVisible: true }).ToArray();
        Assert.True(hidden.Length == 0, $"documented, but not visible outside {assembly.GetName().Name}:{Environment.NewLine}{string.Join(Environment.NewLine, hidden)}");
    }

    [Fact]
    public void TheLibrarysDocumentationLeavesOutTheInternalMembersOfPublicTypes()
    {
        string[] ids = DocumentedIds(typeof(ListMmf<int>).Assembly);

        Assert.Contains(ids, id => id.StartsWith("M:ListMmf.ListMmf`1.AsSpan(", StringComparison.Ordinal));
        Assert.DoesNotContain(ids, id => id.StartsWith("M:ListMmf.ListMmf`1.Snapshot(", StringComparison.Ordinal));
        Assert.DoesNotContain(ids, id => id.StartsWith("P:ListMmf.ListMmf`1.Description", StringComparison.Ordinal));
    }

    private static string[] DocumentedIds(Assembly assembly) =>
        XDocument.Load(Path.ChangeExtension(assembly.Location, ".xml"))
            .Descendants("member")
            .Select(member => (string)member.Attribute("name")!)
            .ToArray();

    /// <summary>The type a documentation ID names, or whose member it names.</summary>
    private static string TypeOf(string id)
    {
        string name = id[2..];
        int parameters = name.IndexOf('(');
        name = parameters < 0 ? name : name[..parameters];
        return id.StartsWith("T:", StringComparison.Ordinal) ? name : name[..name.LastIndexOf('.')];
    }

    /// <summary>The type of a documentation ID's name, whose nested types are separated by '.', not '+'.</summary>
    private static Type? Resolve(Assembly assembly, string name)
    {
        for (int dot = name.Length; dot > 0; dot = name.LastIndexOf('.', dot - 1))
        {
            string candidate = dot == name.Length ? name : name[..dot] + name[dot..].Replace('.', '+');
            if (assembly.GetType(candidate) is { } type)
            {
                return type;
            }
        }

        return null;
    }
}
