using System;
using System.Buffers.Binary;
using System.IO;
using Microsoft.Win32.SafeHandles;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// Indices past 2^31 and 2^32 work. The files are sparse: the test writes a header and sets the length, so only the
/// few pages it touches take disk space.
/// </summary>
public sealed class LargeIndexTests : IDisposable
{
    private const long Beyond4G = (1L << 32) + 1_000;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ByteItemsPast2To32CanBeWrittenAndReadBack(MappingBackend backend)
    {
        string path = CreateSparse<byte>(count: Beyond4G, DataType.Byte);
        using (var list = new ListMmf<byte>(path, FileAccess.ReadWrite, Backends.Options(backend)))
        {
            Assert.Equal(Beyond4G, list.Count);
            list[int.MaxValue + 1L] = 31;
            list[uint.MaxValue + 1L] = 32;
            list[Beyond4G - 1] = 33;
            list.Add(34);
            Assert.Equal(0, list[uint.MaxValue]);
        }

        using var reader = new ListMmf<byte>(path, FileAccess.Read, Backends.Options(backend));
        Assert.Equal(Beyond4G + 1, reader.Count);
        Assert.Equal(31, reader[int.MaxValue + 1L]);
        Assert.Equal(32, reader[uint.MaxValue + 1L]);
        Assert.Equal(33, reader[Beyond4G - 1]);
        Assert.Equal(34, reader[Beyond4G]);
        Assert.Equal([0, 32, 0], reader.AsSpan(uint.MaxValue, 3).ToArray());
    }

    [Fact]
    public void ASpanOfARangeLongerThanASpanCanBeIsRefusedNamingTheLimit()
    {
        string path = CreateSparse<byte>(count: Beyond4G, DataType.Byte);
        using var reader = new ListMmf<byte>(path, FileAccess.Read);

        var refused = Assert.Throws<ArgumentOutOfRangeException>(() => reader.AsSpan(new IndexRange(1, int.MaxValue + 2L)).Length);

        Assert.Contains("longer than a span can be (2,147,483,647 items, int.MaxValue)", refused.Message, StringComparison.Ordinal);
        Assert.Equal(int.MaxValue, reader.AsSpan(new IndexRange(1, int.MaxValue + 1L)).Length);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void Int32ItemsPast2To32CanBeWrittenAndReadBack(MappingBackend backend)
    {
        string path = CreateSparse<int>(count: Beyond4G, DataType.UnixSeconds);
        using (var list = new ListMmf<int>(path, FileAccess.ReadWrite, Backends.Options(backend)))
        {
            list[uint.MaxValue + 7L] = 1_700_000_000;
            list.Add(-5);
        }

        using var reader = new ListMmf<int>(path, FileAccess.Read, Backends.Options(backend));
        Assert.Equal(Beyond4G + 1, reader.Count);
        Assert.Equal(1_700_000_000, reader[uint.MaxValue + 7L]);
        Assert.Equal(-5, reader[Beyond4G]);
        Assert.Throws<ArgumentOutOfRangeException>(() => reader[Beyond4G + 1]);
    }

    /// <summary>A sparse file whose header claims <paramref name="count"/> items, with room for a few more.</summary>
    private unsafe string CreateSparse<T>(long count, DataType dataType)
        where T : unmanaged
    {
        string path = _directory.File($"sparse-{typeof(T).Name}.bin");
        Span<byte> header = stackalloc byte[16];
        BinaryPrimitives.WriteInt32LittleEndian(header, 0);
        BinaryPrimitives.WriteInt32LittleEndian(header[4..], (int)dataType);
        BinaryPrimitives.WriteInt64LittleEndian(header[8..], count);
        using SafeFileHandle file = File.OpenHandle(path, FileMode.CreateNew, FileAccess.ReadWrite);
        RandomAccess.Write(file, header, 0);
        RandomAccess.SetLength(file, 16 + ((count + 4_096) * sizeof(T)));
        return path;
    }
}
