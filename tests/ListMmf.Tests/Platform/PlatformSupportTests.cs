using System;
using System.IO;
using ListMmf.Storage;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>What the library refuses up front: processes it would read wrongly, sizes no file can have.</summary>
public sealed class PlatformSupportTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("sizes.bin");

    [Fact]
    public void ThirtyTwoBitProcessIsRefused() =>
        Assert.Throws<PlatformNotSupportedException>(() => StoragePlatform.CheckProcess(is64BitProcess: false, isLittleEndian: true));

    [Fact]
    public void BigEndianProcessIsRefused() =>
        Assert.Throws<PlatformNotSupportedException>(() => StoragePlatform.CheckProcess(is64BitProcess: true, isLittleEndian: false));

    [Fact]
    public void ThisProcessIsSupported()
    {
        StoragePlatform.CheckProcess(Environment.Is64BitProcess, BitConverter.IsLittleEndian);
        Assert.NotNull(StoragePlatform.Current);
    }

    [Theory]
    [InlineData(long.MaxValue / 2)]
    [InlineData(long.MaxValue)]
    [InlineData(-1)]
    public void EnsureCapacityBeyondAnyFileThrowsArgumentOutOfRange(long capacity)
    {
        using var list = new ListMmf<long>(FilePath);

        Assert.Throws<ArgumentOutOfRangeException>(() => list.EnsureCapacity(capacity));
        Assert.Equal(0, list.Count);
    }

    [Theory]
    [InlineData(long.MaxValue / 2)]
    [InlineData(long.MaxValue / 8)]
    [InlineData(-1)]
    public void InitialCapacityBeyondAnyFileThrowsArgumentOutOfRange(long capacity)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new ListMmf<long>(FilePath, FileAccess.ReadWrite, new ListMmfOptions { InitialCapacity = capacity }));
        Assert.False(File.Exists(FilePath));
    }
}
