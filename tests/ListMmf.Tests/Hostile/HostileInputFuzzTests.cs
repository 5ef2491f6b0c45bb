using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using System.Text;
using System.Threading.Tasks;
using ListMmf.Search;
using ListMmf.Tests.Platform;
using ListMmf.Tests.Tool;
using Xunit;
using Xunit.Abstractions;

namespace ListMmf.Tests.Hostile;

/// <summary>
/// A fuzz stage for what another member of a team folder can put in front of a reader: mutated table manifests,
/// mutated list headers and descriptions, and FIFOs, links to <c>/dev/zero</c>, folders and empty files at every side
/// file's and data file's name. Each case goes to the library (a table opened and read, a list opened and read, its
/// description and file info) and to the tool (<c>info</c>, <c>verify</c>, <c>head</c>, <c>export csv</c>, in this
/// process). Allowed: a normal return, or a refusal (an <see cref="IOException"/>, which every <c>ListMmf*</c>
/// exception is, or <see cref="UnauthorizedAccessException"/>; the tool's exit code 1 with one line). Not allowed:
/// any other exception, a hang (each case has <see cref="Deadline"/>), or more than <see cref="AllocationBound"/>
/// bytes allocated by the case's thread. Seeded (63), so a failing case is reproduced by its number.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class HostileInputFuzzTests : IDisposable
{
    /// <summary>Far above any case's need; reached only by an open that waits on a FIFO.</summary>
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(60);

    /// <summary>
    /// The most one case's thread may allocate: the files are a few KiB and side files are read up to 1 MiB, so a
    /// case near this bound reads what a claim in the file told it to, which is the defect looked for.
    /// </summary>
    private const long AllocationBound = 64L << 20;

    private const int ManifestCases = 1_500;
    private const int HeaderCases = 1_000;
    private const int DescriptionCases = 600;

    private static readonly string[] HostileNames =
        ["../x", "/etc/passwd", "a/b", ".", "..", "", "table.json", "x.writer-lock", "x.listmmf.tmp", "a\u0001b", "name.",
            new string('n', 201), "PRICE.MMF", "price.mmf"];

    private readonly TempDirectory _directory = new();
    private readonly ITestOutputHelper _output;
    private readonly Random _random = new(63);
    private long _largestAllocation;

    public HostileInputFuzzTests(ITestOutputHelper output) => _output = output;

    public void Dispose() => _directory.Dispose();

    [UnixFact]
    public void MutatedManifestsAreReadOrRefused()
    {
        string table = _directory.File("table");
        CreateTable(table);
        string manifest = Path.Combine(table, TimeSeriesTable.ManifestFileName);
        byte[] valid = File.ReadAllBytes(manifest);
        for (int i = 0; i < ManifestCases; i++)
        {
            (byte[] bytes, string mutation) = MutateManifest(valid);
            File.WriteAllBytes(manifest, bytes);
            RunCase($"manifest case {i} ({mutation})", () => ReadTable(table));
        }

        Report("manifests", ManifestCases);
    }

    [UnixFact]
    public void MutatedHeadersAreReadOrRefused()
    {
        foreach (ListMmfFormatVersion version in (ListMmfFormatVersion[])[ListMmfFormatVersion.Version1, ListMmfFormatVersion.Version2])
        {
            string path = _directory.File($"v{(int)version}.bt");
            using (var list = new ListMmf<long>(path, FileAccess.ReadWrite, ListMmfOptions.Default with { FormatVersion = version }))
            {
                list.AddRange(Enumerable.Range(0, 600).Select(i => (long)i).ToArray());
            }

            byte[] valid = File.ReadAllBytes(path);
            int headerBytes = version == ListMmfFormatVersion.Version1 ? 16 : 4_096;
            for (int i = 0; i < HeaderCases; i++)
            {
                (byte[] bytes, string mutation) = MutateBytes(valid, headerBytes);
                File.WriteAllBytes(path, bytes);
                RunCase($"version {(int)version} header case {i} ({mutation})", () => ReadList(path));
            }
        }

        Report("headers", 2 * HeaderCases);
    }

    /// <summary>Sealed files: their header, directory and blocks mutated anywhere (the blocks' checksums are issue 65's).</summary>
    [UnixFact]
    public void MutatedSealedFilesAreReadOrRefused()
    {
        string path = _directory.File("sealed.bt");
        using (var list = new ListMmf<long>(path))
        {
            list.AddRange(Enumerable.Range(0, 3_000).Select(i => (long)i * 25).ToArray());
        }

        Assert.True(SealedListMmf.Seal(path));
        byte[] valid = File.ReadAllBytes(path);
        for (int i = 0; i < HeaderCases; i++)
        {
            (byte[] bytes, string mutation) = MutateBytes(valid, i % 2 == 0 ? 4_096 : valid.Length);
            File.WriteAllBytes(path, bytes);
            RunCase($"sealed case {i} ({mutation})", () => ReadList(path));
        }

        Report("sealed files", HeaderCases);
    }

    [UnixFact]
    public void MutatedDescriptionsAreReadOrRefused()
    {
        string path = _directory.File("quotes.bt");
        using (var list = new ListMmf<Quote192>(path, FileAccess.ReadWrite, ListMmfOptions.Default with { FormatVersion = ListMmfFormatVersion.Version1 }))
        {
            list.Add(default);
        }

        string description = ListMmfDescription.PathFor(path);
        byte[] valid = File.ReadAllBytes(description);
        for (int i = 0; i < DescriptionCases; i++)
        {
            (byte[] bytes, string mutation) = MutateManifest(valid);
            File.WriteAllBytes(description, bytes);
            RunCase($"description case {i} ({mutation})", () => ReadList(path));
        }

        Report("descriptions", DescriptionCases);
    }

    /// <summary>Every kind of special file at every name a reader opens: the manifest, a column file, fences, a description, a data file.</summary>
    [UnixFact]
    public void SpecialFilesAtEveryNameAreRefusedWithoutWaiting()
    {
        int cases = 0;
        foreach (string kind in (string[])["fifo", "dev-zero-link", "folder", "folder-link", "empty"])
        {
            string table = _directory.File($"table-{kind}");
            CreateTable(table);
            foreach (string name in (string[])[TimeSeriesTable.ManifestFileName, "price.mmf", Path.GetFileName(FenceFile<int>.PathFor("time.mmf"))])
            {
                Plant(Path.Combine(table, name), kind);
                RunCase($"{kind} at a table's {name}", () => ReadTable(table));
                Restore(table);
                cases++;
            }

            string list = _directory.File($"list-{kind}.bt");
            using (var v1 = new ListMmf<Quote192>(list, FileAccess.ReadWrite, ListMmfOptions.Default with { FormatVersion = ListMmfFormatVersion.Version1 }))
            {
                v1.Add(default);
            }

            Plant(ListMmfDescription.PathFor(list), kind);
            RunCase($"{kind} at a description", () => ReadList(list));
            string data = _directory.File($"data-{kind}.bt");
            Plant(data, kind);
            RunCase($"{kind} at a data file", () => ReadList(data));
            cases += 2;
        }

        Report("special files", cases);
    }

    /// <summary>Runs one case on a thread of its own, under the deadline and the allocation bound.</summary>
    private void RunCase(string name, Action read)
    {
        Task<long> task = Task.Run(() =>
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            try
            {
                read();
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                // A refusal: what a reader of damaged or hostile input should give.
            }

            return GC.GetAllocatedBytesForCurrentThread() - before;
        });
        if (Task.WhenAny(task, Task.Delay(Deadline)).GetAwaiter().GetResult() != task)
        {
            throw new TimeoutException($"{name}: no answer within {Deadline.TotalSeconds:N0} s");
        }

        long allocated;
        try
        {
            allocated = task.GetAwaiter().GetResult();
        }
        catch (Exception exception)
        {
            throw new InvalidOperationException($"{name}: {exception.GetType().Name}, neither an answer nor a refusal: {exception.Message}", exception);
        }

        Assert.True(allocated <= AllocationBound, $"{name}: allocated {allocated:N0} bytes, more than {AllocationBound:N0}");
        _largestAllocation = Math.Max(_largestAllocation, allocated);
    }

    private void Report(string family, int cases) =>
        _output.WriteLine($"{cases:N0} {family}: largest allocation of a case {_largestAllocation:N0} bytes");

    /// <summary>The library and the tool on a table folder.</summary>
    private void ReadTable(string table)
    {
        try
        {
            using var opened = TimeSeriesTable.Open(table, FileAccess.Read);
            long rows = opened.RowCount;
            foreach (TableColumn column in opened.Columns)
            {
                _ = column.Name;
            }

            if (rows > 0)
            {
                _ = opened.TimeAt(rows - 1);
            }
        }
        finally
        {
            RunTool("info", table);
            RunTool("verify", table);
            string output = Path.Combine(_directory.Path, $"export-{Guid.NewGuid():N}.csv");
            RunTool("export", "csv", table, "--out", output);
            File.Delete(output);
        }
    }

    /// <summary>The library and the tool on a list file.</summary>
    private static void ReadList(string path)
    {
        try
        {
            _ = ListMmfDescription.Read(path);
            ListMmfFileInfo info = ListMmfFileInfo.Read(path);
            if (info.DataType == DataType.Int64 && SealedListMmf.IsSealed(path))
            {
                using var sealedList = new SealedListMmf<long>(path);
                if (sealedList.Count > 0)
                {
                    _ = sealedList[sealedList.Count - 1];
                    _ = sealedList.LowerBound(1_000);
                }
            }
            else if (info.DataType == DataType.Int64)
            {
                using var list = new ListMmf<long>(path, FileAccess.Read);
                if (list.Count > 0)
                {
                    _ = list[list.Count - 1];
                }
            }
        }
        finally
        {
            RunTool("info", path);
            RunTool("verify", path);
            RunTool("head", path, "-n", "3");
        }
    }

    /// <summary>
    /// The tool in this process: it answers, or refuses the data with its exit code (1) and one line (verify reports
    /// what it found on its output); an exception it does not catch fails the case.
    /// </summary>
    private static void RunTool(params string[] args)
    {
        ToolResult result = ToolRunner.Run(args);
        Assert.True(
            result.ExitCode == 0 || (result.ExitCode == ListMmf.Tool.Commands.Cli.BadData && (result.Error.Length == 0 || result.IsOneErrorLine)),
            $"listmmf {string.Join(' ', args)} exited {result.ExitCode}: {result.Error}");
    }

    private (byte[] Bytes, string Mutation) MutateManifest(byte[] valid)
    {
        string text = Encoding.UTF8.GetString(valid);
        switch (_random.Next(7))
        {
            case 0:
                return MutateBytes(valid, valid.Length);
            case 1:
            {
                int at = _random.Next(valid.Length);
                return (valid[..at], $"cut at {at}");
            }

            case 2:
            {
                int depth = _random.Next(1, 200_000);
                return (Encoding.UTF8.GetBytes(new string('[', depth)), $"{depth} nested arrays");
            }

            case 3:
            {
                string name = HostileNames[_random.Next(HostileNames.Length)];
                string json = System.Text.Json.JsonSerializer.Serialize(name);
                string mutated = text.Replace("\"price.mmf\"", json, StringComparison.Ordinal);
                return (Encoding.UTF8.GetBytes(mutated), $"a column file named {json}");
            }

            case 4:
            {
                int copies = _random.Next(1, 60_000);
                int start = text.IndexOf("{\"name\":\"price\"", StringComparison.Ordinal);
                if (start < 0)
                {
                    return MutateBytes(valid, valid.Length);
                }

                int end = text.IndexOf('}', start) + 1;
                string entry = text[start..end];
                string many = string.Join(",", Enumerable.Range(0, copies).Select(i => entry.Replace("price", $"p{i}", StringComparison.Ordinal)));
                return (Encoding.UTF8.GetBytes(text[..start] + many + text[end..]), $"{copies} columns");
            }

            case 5:
            {
                string number = _random.Next(3) switch { 0 => "1e308", 1 => "-9223372036854775809", _ => new string('9', 400) };
                string mutated = System.Text.RegularExpressions.Regex.Replace(text, "\\d+", number);
                return (Encoding.UTF8.GetBytes(mutated), $"every number {number[..Math.Min(20, number.Length)]}");
            }

            default:
            {
                string mutated = text.Replace("\"Int32\"", "\"AnyStruct\"", StringComparison.Ordinal).Replace("\"Double\"", "\"Bit\"", StringComparison.Ordinal);
                return (Encoding.UTF8.GetBytes(mutated), "types a table does not hold");
            }
        }
    }

    private (byte[] Bytes, string Mutation) MutateBytes(byte[] valid, int within)
    {
        byte[] bytes = (byte[])valid.Clone();
        int changes = _random.Next(1, 9);
        var where = new List<string>();
        for (int c = 0; c < changes; c++)
        {
            int at = _random.Next(Math.Min(within, bytes.Length));
            switch (_random.Next(4))
            {
                case 0:
                    bytes[at] ^= (byte)(1 << _random.Next(8));
                    break;
                case 1:
                    bytes[at] = (byte)_random.Next(256);
                    break;
                case 2:
                    bytes[at] = 0xFF;
                    break;
                default:
                    bytes[at] = 0;
                    break;
            }

            where.Add(at.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        if (_random.Next(8) == 0)
        {
            int length = _random.Next(bytes.Length);
            return (bytes[..length], $"bytes {string.Join(",", where)} changed, cut at {length}");
        }

        return (bytes, $"bytes {string.Join(",", where)} changed");
    }

    private static void CreateTable(string folder)
    {
        var schema = new TimeSeriesTableSchema("time", DataType.UnixSeconds, TimeSeriesOrder.Ascending)
            .Add("size", DataType.Int32)
            .Add("price", DataType.Double);
        using var table = TimeSeriesTable.Create(folder, schema);
        for (int i = 0; i < 500; i++)
        {
            table.Column<int>("size").Add(i);
            table.Column<double>("price").Add(i / 4.0);
            table.AddRow(DateTime.UnixEpoch.AddSeconds(1_700_000_000 + i));
        }

        table.Flush();
    }

    /// <summary>Puts back a table's files after a special file was planted in it.</summary>
    private static void Restore(string table)
    {
        Directory.Delete(table, recursive: true);
        CreateTable(table);
    }

    private static void Plant(string path, string kind)
    {
        if (Directory.Exists(path) && new DirectoryInfo(path).LinkTarget is null)
        {
            Directory.Delete(path, recursive: true);
        }
        else
        {
            File.Delete(path);
        }

        switch (kind)
        {
            case "fifo":
                using (Process mkfifo = Process.Start("mkfifo", [path])!)
                {
                    mkfifo.WaitForExit();
                    Assert.Equal(0, mkfifo.ExitCode);
                }

                break;
            case "dev-zero-link":
                File.CreateSymbolicLink(path, "/dev/zero");
                break;
            case "folder":
                Directory.CreateDirectory(path);
                break;
            case "folder-link":
                File.CreateSymbolicLink(path, Path.GetTempPath());
                break;
            default:
                File.WriteAllBytes(path, []);
                break;
        }
    }
}
