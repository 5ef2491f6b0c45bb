using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using System.Threading;
using ListMmf.Sealed;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// A reader open while its list is sealed or unsealed, opened on either form: it keeps every answer it gave (the seal
/// holds the same items), follows an unseal to the appendable file, and sees the next writer's items there.
/// </summary>
public sealed class ReadersAcrossSealTests : IDisposable
{
    private const int Items = 20_000;
    private static readonly TimeSpan HangDeadline = TimeSpan.FromSeconds(30);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("times.mmf");

    [Fact]
    public void AListReaderOpenAcrossASealKeepsItsCountAndItems()
    {
        Write();
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        string before = Answers(reader);

        Assert.True(SealedListMmf.Seal(FilePath));

        Assert.Equal(before, Answers(reader));
        Assert.Equal(before, Answers(reader));
    }

    [Fact]
    public void ATimeSeriesReaderOpenAcrossASealKeepsItsSearches()
    {
        Write();
        using var reader = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.Read);
        string before = Searches(reader);

        SealedListMmf.Seal(FilePath);

        Assert.Equal(before, Searches(reader));
    }

    [Fact]
    public void AListReaderThatReadAcrossASealFollowsTheUnsealAndSeesTheNextWritersItems()
    {
        Write();
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        SealedListMmf.Seal(FilePath);
        Assert.Equal(Items, reader.Count);

        SealedListMmf.Unseal(FilePath);
        using (var writer = new ListMmf<int>(FilePath))
        {
            writer.Add(TimeAt(Items));
        }

        Polling.Until(() => reader.Count == Items + 1, "the reader to see the item appended after the unseal", HangDeadline);
        Assert.Equal(TimeAt(Items), reader[Items]);
        Assert.Equal(TimeAt(7), reader[7]);
    }

    [Theory]
    [InlineData("indexer")]
    [InlineData("AsSpan")]
    [InlineData("AsMemory")]
    [InlineData("CopyTo")]
    public void AListReaderWithinItsWaitBetweenLooksReadsAnItemPastItsCountFromTheUnsealedFile(string read)
    {
        Write();
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        SealedListMmf.Seal(FilePath);
        ReplacementCheck.t_recheckMilliseconds = (int)HangDeadline.TotalMilliseconds;
        try
        {
            // The reader looks at the sealed file now, and not again before the wait is over.
            Assert.Equal(Items, reader.Count);
            SealedListMmf.Unseal(FilePath);
            AppendAfterUnseal();
            Assert.Equal(Items, reader.Count);

            // As a table's column is asked for a row its time column has already shown in the unsealed file.
            int[] copied = new int[1];
            int item = read switch
            {
                "indexer" => reader[Items],
                "AsSpan" => reader.AsSpan(Items, 1)[0],
                "AsMemory" => reader.AsMemory(new IndexRange(Items, Items + 1)).Span[0],
                _ => CopyOne(reader, copied),
            };

            Assert.Equal(TimeAt(Items), item);
        }
        finally
        {
            ReplacementCheck.t_recheckMilliseconds = 0;
        }

        static int CopyOne(ListMmf<int> list, int[] destination)
        {
            list.CopyTo(new IndexRange(Items, Items + 1), destination);
            return destination[0];
        }
    }

    [Fact]
    public void AListReaderThatDidNotReadWhileSealedMovesStraightToTheUnsealedFile()
    {
        Write();
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        SealedListMmf.Seal(FilePath);
        SealedListMmf.Unseal(FilePath);
        using (var writer = new ListMmf<int>(FilePath))
        {
            writer.Add(TimeAt(Items));
        }

        Assert.Equal(Items + 1, reader.Count);
        Assert.Equal(TimeAt(Items), reader[Items]);
    }

    [Fact]
    public void AListReaderOnASealedFileStaysOnItsFileWithoutMovingForEveryRead()
    {
        Write();
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read);
        SealedListMmf.Seal(FilePath);

        for (int i = 0; i < 1_000; i++)
        {
            Assert.Equal(Items, reader.Count);
        }

        Assert.Equal(0, reader.Generation);
    }

    [Fact]
    public void ASealedListReaderFollowsAnUnsealAndReadsTheNextWritersItems()
    {
        Write();
        SealedListMmf.Seal(FilePath);
        using var reader = new SealedListMmf<int>(FilePath);
        int[] before = reader.ToArray();

        SealedListMmf.Unseal(FilePath);
        AppendAfterUnseal();

        Assert.Equal(Items + 1, reader.Count);
        Assert.Equal(TimeAt(Items), reader[Items]);
        Assert.Equal(before, reader.ToArray()[..Items]);
        Assert.False(((IReadOnlyListMmf<int>)reader).IsSealed);
    }

    [Fact]
    public void ASealedListReaderThatFollowedAnUnsealSearchesTheNextWritersItems()
    {
        Write();
        SealedListMmf.Seal(FilePath);
        using var reader = new SealedListMmf<int>(FilePath);
        Assert.Equal(Items, reader.LowerBound(int.MaxValue));

        SealedListMmf.Unseal(FilePath);
        AppendAfterUnseal();

        Assert.Equal(Items, reader.LowerBound(TimeAt(Items)));
        Assert.Equal(Items + 1, reader.UpperBound(TimeAt(Items)));
        Assert.Equal(Items, reader.LastAtOrBefore(int.MaxValue));
        long[] bounds = new long[2];
        reader.LowerBound([TimeAt(7), TimeAt(Items)], bounds);
        Assert.Equal([7L, Items], bounds);
    }

    [Fact]
    public void ASealedTimeSeriesReaderFollowsAnUnsealAndFindsTheNextWritersTime()
    {
        Write();
        SealedListMmf.Seal(FilePath);
        using IReadOnlyTimeSeries reader = TimeSeriesFile.OpenRead(FilePath);
        DateTime next = DateTime.UnixEpoch.AddSeconds(TimeAt(Items));
        Assert.Equal(Items, reader.LowerBound(next));

        SealedListMmf.Unseal(FilePath);
        AppendAfterUnseal();

        Assert.Equal(Items + 1, reader.Count);
        Assert.Equal(Items, reader.LastAtOrBefore(next));
        Assert.Equal(next, reader[Items]);
    }

    [Fact]
    public void ASealedListReaderFollowsAnUnsealAndTheSealAfterItToTheNewSealedFile()
    {
        Write();
        SealedListMmf.Seal(FilePath);
        using var reader = new SealedListMmf<int>(FilePath);
        Assert.Equal(Items, reader.Count);

        SealedListMmf.Unseal(FilePath);
        AppendAfterUnseal();
        SealedListMmf.Seal(FilePath);

        Assert.Equal(Items + 1, reader.Count);
        Assert.Equal(TimeAt(Items), reader[Items]);
        Assert.True(((IReadOnlyListMmf<int>)reader).IsSealed);
    }

    [Fact]
    public async Task ThreadsReadingASealedListWhileItMovesReadEveryItemRight()
    {
        const int Threads = 3;
        Write();
        SealedListMmf.Seal(FilePath);
        using var reader = new SealedListMmf<int>(FilePath);
        using var reading = new CountdownEvent(Threads);
        using var appended = new ManualResetEventSlim();
        Task[] readers = Enumerable.Range(0, Threads).Select(seed => Task.Run(() =>
        {
            var random = new Random(seed);
            bool started = false;
            while (!appended.IsSet || reader.Count != Items + 1)
            {
                int at = random.Next((int)reader.Count);
                Assert.Equal(TimeAt(at), reader[at]);
                if (!started)
                {
                    started = true;
                    reading.Signal();
                }
            }

            Assert.Equal(TimeAt(Items), reader[Items]);
        })).ToArray();

        // Every thread reads the sealed file before the unseal, and goes on reading while the list moves.
        Assert.True(reading.Wait(HangDeadline), "the reading threads did not start");
        SealedListMmf.Unseal(FilePath);
        AppendAfterUnseal();
        appended.Set();

        await Task.WhenAll(readers).WaitAsync(HangDeadline);
    }

    [Fact]
    public void ASealedListReaderWhoseUnsealHasNotRenamedKeepsReadingItsFile()
    {
        Write();
        SealedListMmf.Seal(FilePath);
        using var reader = new SealedListMmf<int>(FilePath);
        int[] before = reader.ToArray();

        // What an unseal leaves when it is killed between its mark and its rename: the sealed file, marked, at the path.
        using (SealedFile marked = SealedFile.Open(FilePath, replacing: true))
        {
            marked.MarkReplaced();
        }

        for (int i = 0; i < 1_000; i++)
        {
            Assert.Equal(Items, reader.Count);
        }

        Assert.Equal(before, reader.ToArray());
        Assert.Throws<ArgumentOutOfRangeException>(() => reader[Items]);
        Assert.True(((IReadOnlyListMmf<int>)reader).IsSealed);
    }

    [Fact]
    public void AnIntegerListReaderOpenAcrossASealKeepsItsItems()
    {
        using (IntegerListMmf writer = IntegerListMmf.OpenSmallest(FilePath))
        {
            for (int i = 0; i < Items; i++)
            {
                writer.Add(i * 3);
            }
        }

        using IntegerListMmf reader = IntegerListMmf.Open(FilePath, FileAccess.Read);
        long[] before = Enumerable.Range(0, Items).Select(i => reader[i]).ToArray();

        SealedListMmf.Seal(FilePath);

        Assert.Equal(Items, reader.Count);
        Assert.Equal(before, Enumerable.Range(0, Items).Select(i => reader[i]).ToArray());
    }

    /// <summary>A writer opens the unsealed file and appends the next time.</summary>
    private void AppendAfterUnseal()
    {
        using var writer = new ListMmf<int>(FilePath);
        writer.Add(TimeAt(Items));
    }

    private static int TimeAt(int i) => 1_700_000_000 + (i * 3) + (i % 3);

    /// <summary>Ascending Unix seconds, written as a seconds series so that the series reader opens the file too.</summary>
    private void Write()
    {
        using var writer = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.AscendingOrEqual);
        for (int i = 0; i < Items; i++)
        {
            writer.Add(DateTime.UnixEpoch.AddSeconds(TimeAt(i)));
        }
    }

    /// <summary>The list's count and items read every way a list reads them, as one text to compare.</summary>
    private static string Answers(ListMmf<int> list)
    {
        int[] span = list.AsSpan(5_000, 1_000).ToArray();
        long sum = 0;
        foreach (int item in list)
        {
            sum += item;
        }

        return $"{list.Count} {list[0]} {list[Items - 1]} {sum} {list.ComputeXxHash3()} {string.Join(',', span)}";
    }

    private static string Searches(ListMmfTimeSeriesDateTimeSeconds series)
    {
        DateTime first = series[0];
        return string.Join(' ', Enumerable.Range(-2, 300).Select(i => first.AddSeconds(i * 211)).Select(time =>
            $"{series.LowerBound(time)}/{series.UpperBound(time)}"));
    }
}
