using System;
using System.IO;
using System.Linq;
using ListMmf.Storage;
using ListMmf.Tests.Platform;
using Xunit;

namespace ListMmf.Tests.Hostile;

/// <summary>
/// The replacement where no file can be renamed over an open one (Windows without POSIX renames, Wine): the old file
/// is moved aside and the new one renamed in. When both the second rename and the move back fail, the path is
/// empty; the list must fault, and the next writer must put back this replacement's old file (the one its intent file
/// records), never an older one that a reader still holds under another aside name.
/// </summary>
public sealed class MoveAsideReplacementTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose()
    {
        FileReplacement.BeforeStep = null;
        _directory.Dispose();
    }

    private string FilePath => _directory.File("list.bin");

    [WindowsFact]
    public void BothRenamesFailingFaultsTheListAndTheNextWriterGetsTheDataOfThatReplacementsOldFile()
    {
        var writer = new ListMmf<long>(FilePath);
        writer.AddRange(Range(0, 100));
        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        writer.TruncateBeginning(10);
        writer.AddRange(Range(100, 20));
        writer.Flush();
        FailAt(ReplacementStep.RenameIntoPlace, ReplacementStep.PutBack);

        var exception = Assert.Throws<ListMmfException>(() => writer.TruncateBeginning(10));

        Assert.DoesNotContain("unchanged", exception.Message, StringComparison.Ordinal);
        Assert.Contains("refuses every later call", Assert.Throws<ListMmfException>(() => writer.Add(1)).Message, StringComparison.Ordinal);
        FileReplacement.BeforeStep = null;
        writer.Dispose();
        using var next = new ListMmf<long>(FilePath);
        Assert.Equal(Range(10, 110), next.ToArray());
    }

    [WindowsFact]
    public void TheNextWriterPutsBackTheOldFileTheIntentRecordsNotTheLowestAsideName()
    {
        WriteList(FilePath, Range(0, 100));
        File.Move(FilePath, WindowsAside(0));
        WriteList(FilePath, Range(10, 110));
        File.Move(FilePath, WindowsAside(1));
        File.WriteAllText(FilePath + ".listmmf.replacing", Path.GetFileName(WindowsAside(1)));

        using var next = new ListMmf<long>(FilePath);

        Assert.Equal(Range(10, 110), next.ToArray());
        Assert.Equal(["list.bin", "list.bin.writer-lock"], FileNames());
    }

    [WindowsFact]
    public void TheNextWriterPrefersTheCompleteNewFileToTheOldOne()
    {
        WriteList(FilePath, Range(0, 100));
        File.Move(FilePath, WindowsAside(0));
        WriteList(FilePath, Range(10, 90));
        File.Move(FilePath, DurableFile.TemporaryFor(FilePath));
        File.WriteAllText(FilePath + ".listmmf.replacing", Path.GetFileName(WindowsAside(0)));

        using var next = new ListMmf<long>(FilePath);

        Assert.Equal(Range(10, 90), next.ToArray());
        Assert.Equal(["list.bin", "list.bin.writer-lock"], FileNames());
    }

    [WindowsFact]
    public void WithoutAnIntentNoOldFileIsBroughtBackToAnEmptyPath()
    {
        WriteList(FilePath, Range(0, 100));
        File.Move(FilePath, WindowsAside(0));

        using var next = new ListMmf<long>(FilePath);

        Assert.Empty(next.ToArray());
    }

    private static long[] Range(int start, int count) => Enumerable.Range(start, count).Select(i => (long)i).ToArray();

    private static void WriteList(string path, long[] items)
    {
        using var list = new ListMmf<long>(path);
        list.AddRange(items);
    }

    private string WindowsAside(int index) => $"{FilePath}.listmmf.old{index}";

    private static void FailAt(params ReplacementStep[] failing) =>
        FileReplacement.BeforeStep = step =>
        {
            if (failing.Contains(step))
            {
                throw new IOException($"injected failure at {step}");
            }
        };

    private string[] FileNames() => Directory.GetFiles(_directory.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToArray()!;
}
