using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Legacy;

/// <summary>
/// ListMmf 1.3.0 beside this library (issue 64). On 5abfe22 no 1.x release checked a file's version: its reader showed
/// a version 2 header as items and its writer wrote over it. Now every version 2 and sealed file carries a live count
/// 1.x refuses; on version 1 files, which both libraries write, this library's writer (and upgrade) keeps away from a
/// live 1.x writer, and 1.x still reads what this library writes.
/// </summary>
public sealed class ListMmf1xTests : IDisposable
{
    private static readonly ListMmfOptions Version1 = ListMmfOptions.Default with { FormatVersion = ListMmfFormatVersion.Version1 };
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("ES.bt");

    [ListMmf1xFact]
    public void ListMmf1xsReaderRefusesAVersion2File()
    {
        WriteValues(ListMmfOptions.Default, 10);
        byte[] before = File.ReadAllBytes(FilePath);

        ToolRun read = ListMmf1x.Run("read", FilePath);

        Assert.True(read.ExitCode == 1, $"1.x read the file: {read.Output} {read.Error}");
        Assert.Contains("cannot be less than Count", read.Error, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(FilePath));
    }

    [ListMmf1xFact]
    public void ListMmf1xsWriterRefusesAVersion2FileAndLeavesItAsItWas()
    {
        WriteValues(ListMmfOptions.Default, 10);
        byte[] before = File.ReadAllBytes(FilePath);

        ToolRun write = ListMmf1x.Run("write", FilePath, "500");

        Assert.True(write.ExitCode == 1, $"1.x wrote the file: {write.Output} {write.Error}");
        Assert.Equal(before, File.ReadAllBytes(FilePath));
        using var reader = new ListMmf<long>(FilePath, FileAccess.Read);
        Assert.Equal(Enumerable.Range(0, 10).Select(i => (long)i), reader.AsSpan(0, (int)reader.Count).ToArray());
    }

    /// <summary>An empty version 2 file: a count of 0 is one 1.x would take, were it not for the guard.</summary>
    [ListMmf1xFact]
    public void ListMmf1xRefusesAnEmptyVersion2File()
    {
        WriteValues(ListMmfOptions.Default, 0);

        AssertListMmf1xRefusesTheFileAndLeavesItAsItWas();
    }

    [ListMmf1xFact]
    public void ListMmf1xRefusesASealedFile()
    {
        WriteValues(ListMmfOptions.Default, 5_000);
        SealedListMmf.Seal(FilePath);

        AssertListMmf1xRefusesTheFileAndLeavesItAsItWas();
    }

    /// <summary>During a migration old readers keep reading the version 1 files this library writes.</summary>
    [ListMmf1xFact]
    public void ListMmf1xReadsAVersion1FileThisLibraryWrote()
    {
        WriteValues(Version1, 10);

        ToolRun read = ListMmf1x.Run("read", FilePath);

        Assert.True(read.ExitCode == 0, read.Error);
        Assert.Equal("10", read.Output);
    }

    [ListMmf1xFact]
    public void AWriterIsRefusedWhileAListMmf1xWriterHoldsAVersion1File()
    {
        Assert.Equal(0, ListMmf1x.Run("write", FilePath, "5").ExitCode);
        using Process holder = HoldAs1x();
        try
        {
            var error = Assert.Throws<ListMmfLockedException>(() => new ListMmf<long>(FilePath, FileAccess.ReadWrite, Version1));

            Assert.Contains("ListMmf 1.x's writer lock", error.Message, StringComparison.Ordinal);
            Assert.Contains($"process {holder.Id}", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            Release(holder);
        }

        using var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Version1);
        writer.Add(42);
        Assert.Equal(6, writer.Count);
    }

    [ListMmf1xFact]
    public void UpgradeIsRefusedWhileAListMmf1xWriterHoldsTheFile()
    {
        Assert.Equal(0, ListMmf1x.Run("write", FilePath, "5").ExitCode);
        byte[] before = File.ReadAllBytes(FilePath);
        using Process holder = HoldAs1x();
        try
        {
            Assert.Throws<ListMmfLockedException>(() => ListMmfFileInfo.Upgrade(FilePath));
            Assert.Equal(before, File.ReadAllBytes(FilePath));
        }
        finally
        {
            Release(holder);
        }

        Assert.True(ListMmfFileInfo.Upgrade(FilePath));
        Assert.Equal(2, ListMmfFileInfo.Read(FilePath).Version);
    }

    /// <summary>A version 1 writer holds 1.x's lock file while it writes, as a 1.x writer does, and removes it after.</summary>
    [ListMmf1xFact]
    public void AVersion1WriterHoldsListMmf1xsLockFileWhileItWrites()
    {
        string lockFile = FilePath + ListMmf1xLock.Suffix;
        using (var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Version1))
        {
            writer.Add(1);
            Assert.Contains($"\"Pid\":{Environment.ProcessId}", File.ReadAllText(lockFile), StringComparison.Ordinal);
        }

        Assert.False(File.Exists(lockFile));
    }

    /// <summary>1.x's reader and writer both refuse the file, and its bytes are as they were.</summary>
    private void AssertListMmf1xRefusesTheFileAndLeavesItAsItWas()
    {
        byte[] before = File.ReadAllBytes(FilePath);

        Assert.Equal(1, ListMmf1x.Run("read", FilePath).ExitCode);
        Assert.Equal(1, ListMmf1x.Run("write", FilePath, "5").ExitCode);
        Assert.Equal(before, File.ReadAllBytes(FilePath));
    }

    private void WriteValues(ListMmfOptions options, int count)
    {
        using var writer = new ListMmf<long>(FilePath, FileAccess.ReadWrite, options);
        for (long i = 0; i < count; i++)
        {
            writer.Add(i);
        }
    }

    /// <summary>Starts a 1.x writer of the file that holds it until released; returns once it holds it.</summary>
    private Process HoldAs1x()
    {
        Process holder = ListMmf1x.Start("hold", FilePath);
        string? line = holder.StandardOutput.ReadLine();
        if (line != "held")
        {
            // It exited (its standard error then ends): a refusal, never a wait.
            Assert.Fail($"1.x's writer did not open the file: {line} {holder.StandardError.ReadToEnd()}");
        }

        return holder;
    }

    private static void Release(Process holder)
    {
        holder.StandardInput.WriteLine();
        holder.StandardInput.Flush();
        holder.WaitForExit();
    }
}
