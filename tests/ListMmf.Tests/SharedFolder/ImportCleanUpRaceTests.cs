using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.Versioning;
using System.Text;
using System.Threading;
using ListMmf.Tests.Platform;
using ListMmf.Tool;
using ListMmf.Tool.Csv;
using Xunit;

namespace ListMmf.Tests.SharedFolder;

/// <summary>
/// Issue 63's critical case, raced for real: another member plants a folder and a link to the importer's home inside
/// the folder a failing import created, and swaps them (<c>renameat2(RENAME_EXCHANGE)</c>) without pause while the
/// import takes itself back. On 5abfe22 the clean-up deleted the folder recursively by path and, through the link,
/// files of the home folder in 13 of 100 rounds (five runs of 20), so these 60 rounds fail there but for a chance
/// below 0.1%; now it removes only the names it created, by descriptor.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class ImportCleanUpRaceTests : IDisposable
{
    private const int Rounds = 60;
    private const int HomeFiles = 50;

    /// <summary>Longer than any import of these files takes with the planter running; reached only by a hang.</summary>
    private static readonly TimeSpan PlantDeadline = TimeSpan.FromSeconds(60);

    private readonly SharedFolder _folder = new(team: SharedFolder.TeamGroup is not null);
    private readonly TempDirectory _home = new();

    public void Dispose()
    {
        _folder.Dispose();
        _home.Dispose();
    }

    [UnixFact]
    public void AFailedImportNeverRemovesAnythingThroughAFolderSwappedInsideIt()
    {
        for (int i = 0; i < HomeFiles; i++)
        {
            File.WriteAllText(_home.File($"file{i}"), "the importer's own file");
        }

        string csv = _folder.File("ticks.csv");
        var rows = new StringBuilder("time,price\n");
        for (int i = 0; i < 100_000; i++)
        {
            rows.Append(1_704_187_800 + i).Append(",4500.25\n");
        }

        File.WriteAllText(csv, rows.Append("1704287800,not a price\n").ToString());
        int planted = 0;
        for (int round = 0; round < Rounds; round++)
        {
            string output = _folder.File($"table{round}");
            using Process swapper = StartFolderSwapper(output, _home.Path);
            try
            {
                var request = new ImportRequest(csv, output, "time", null, [("price", "double")], TicksTime: null, Order: null);
                int opened = 0;
                Assert.Throws<DataException>(() => CsvImporter.Run(request, (_, _) => OpenToTheTeam(output, ref opened), chunkBytes: 1 << 16));
            }
            finally
            {
                swapper.Kill(entireProcessTree: true);
                swapper.WaitForExit();
            }

            planted += Directory.Exists(output) ? 1 : 0;
            Assert.Equal(HomeFiles, Directory.GetFiles(_home.Path).Length);
        }

        // The race was run, not missed: in every round the planter's names were inside the folder at the clean-up, so
        // the folder stayed (not empty), as the rule says.
        Assert.Equal(Rounds, planted);
    }

    /// <summary>
    /// The first time the import reports progress (its folder made, rows staged), the folder is opened to the team as
    /// a umask of 007 would have made it, and the import waits until the planter's names are inside.
    /// </summary>
    private static void OpenToTheTeam(string output, ref int opened)
    {
        if (Interlocked.Exchange(ref opened, 1) != 0)
        {
            return;
        }

        File.SetUnixFileMode(output, SharedFolder.TeamGroup is null ? (UnixFileMode)0b111_111_111 : (UnixFileMode)0b111_111_000);
        var deadline = Stopwatch.StartNew();
        while (!File.Exists(Path.Combine(output, "planted")))
        {
            Assert.True(deadline.Elapsed < PlantDeadline, "the planter never planted its names");
            Thread.Yield();
        }
    }

    /// <summary>
    /// Starts the planter: once <paramref name="folder"/> lets it in, it makes a folder and a link to
    /// <paramref name="home"/> inside, marks that it did, and swaps the two by one rename each until killed.
    /// </summary>
    private static Process StartFolderSwapper(string folder, string home)
    {
        const string Script = """
            import ctypes, os, sys
            folder, home = sys.argv[1], sys.argv[2]
            inner, link = os.path.join(folder, "inner"), os.path.join(folder, "inner.swap")
            while True:
                try:
                    os.mkdir(inner)
                    break
                except (FileNotFoundError, PermissionError):
                    pass
            os.symlink(home, link)
            open(os.path.join(folder, "planted"), "w").close()
            libc = ctypes.CDLL(None, use_errno=True)
            a, b = inner.encode(), link.encode()
            while True:
                libc.renameat2(-100, a, -100, b, 2)
            """;
        return SharedFolder.StartAsPlanter("python3", "-c", Script, folder, home);
    }
}
