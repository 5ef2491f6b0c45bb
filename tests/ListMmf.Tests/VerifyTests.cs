using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests;

/// <summary>ListMmf.Verify checks a file as it is on disk, e.g. after a crash.</summary>
public sealed class VerifyTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("verified.bin");

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void VerifyPassesAHealthyFile(MappingBackend backend)
    {
        using var list = new ListMmf<long>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        for (long i = 0; i < 1_000_000; i++)
        {
            list.Add(i);
        }

        list.Verify();
        using var reader = new ListMmf<long>(FilePath, FileAccess.Read, Backends.Options(backend));
        reader.Verify();
    }

    [Fact]
    public void VerifyReportsACountDamagedPastTheFile()
    {
        using var list = new ListMmf<long>(FilePath);
        list.AddRange([1, 2, 3]);
        using (var file = new FileStream(FilePath, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite))
        {
            file.Position = 8;
            file.Write(BitConverter.GetBytes(list.Capacity + 1));
        }

        var exception = Assert.Throws<ListMmfFormatException>(list.Verify);
        Assert.Equal(list.Path, exception.FilePath);
    }

    [Fact]
    public void VerifyReportsAVersionDamagedAfterOpening()
    {
        using var list = new ListMmf<long>(FilePath);
        list.AddRange([1, 2, 3]);
        using (var file = new FileStream(FilePath, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite))
        {
            file.Write(BitConverter.GetBytes(7));
        }

        Assert.Throws<ListMmfFormatException>(list.Verify);
    }

    [Fact]
    public void VerifyOfATimeSeriesReportsItsProgressUpToTheWhole()
    {
        using var series = new ListMmfTimeSeriesDateTimeSeconds(FilePath, TimeSeriesOrder.Ascending);
        series.Keys.AddRange(Enumerable.Range(0, 5_000_000).ToArray());
        var reports = new List<double>();

        series.Verify(new SynchronousProgress(reports.Add));

        Assert.True(reports.Count >= 3, $"{reports.Count} reports");
        Assert.Equal(1.0, reports[^1]);
        Assert.Equal(reports.Order(), reports);
        Assert.Contains(reports, fraction => fraction is > 0 and < 0.5);
        Assert.Contains(reports, fraction => fraction is > 0.5 and < 1);
    }
}
