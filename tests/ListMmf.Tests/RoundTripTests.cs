using System;
using System.IO;
using System.Runtime.CompilerServices;
using Xunit;

namespace ListMmf.Tests;

/// <summary>Every item type survives being written, closed and read back, on every backend.</summary>
public sealed class RoundTripTests : IDisposable
{
    private const int Items = 5_000;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void SByteItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.SByte, i => (sbyte)(i * 7));

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void ByteItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.Byte, i => (byte)(i * 7));

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void Int16ItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.Int16, i => (short)(i * -13));

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void UInt16ItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.UInt16, i => (ushort)(i * 13));

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void Int32ItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.Int32, i => (int)(i * -100_003));

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void UInt32ItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.UInt32, i => (uint)(i * 2_654_435_761));

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void Int64ItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.Int64, i => i * -6_700_417_000_003);

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void UInt64ItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.UInt64, i => (ulong)i * 0x9E3779B97F4A7C15UL);

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void SingleItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.Single, i => i * 0.1f - 3.5f);

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void DoubleItemsRoundTrip(MappingBackend backend) => RoundTrip(backend, DataType.Double, i => Math.Sqrt(i) - 1e300);

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void Quote192ItemsRoundTripAsAnyStruct(MappingBackend backend)
    {
        Assert.Equal(192, Unsafe.SizeOf<Quote192>());
        RoundTrip(backend, DataType.AnyStruct, Quote192.For);
    }

    [Theory, MemberData(nameof(Backends.All), MemberType = typeof(Backends))]
    public void NewFileStartsWithTheDocumentedHeader(MappingBackend backend)
    {
        string path = _directory.File("header.bin");
        using (var list = new ListMmf<long>(path, FileAccess.ReadWrite, Backends.Options(backend)))
        {
            list.Add(42);
            list.Add(43);
        }

        // Version 2 (docs/file-format.md): version, code, live count with bit 62 set (which ListMmf 1.x refuses),
        // state, items offset, durable count; items at 4 KiB.
        byte[] bytes = File.ReadAllBytes(path);
        Assert.Equal(2, BitConverter.ToInt32(bytes, 0));
        Assert.Equal((int)DataType.Int64, BitConverter.ToInt32(bytes, 4));
        Assert.Equal(2L | (1L << 62), BitConverter.ToInt64(bytes, 8));
        Assert.Equal(0, BitConverter.ToInt32(bytes, 16));
        Assert.Equal(4096, BitConverter.ToInt32(bytes, 20));
        Assert.Equal(2L, BitConverter.ToInt64(bytes, 24));
        Assert.Equal(sizeof(long), BitConverter.ToInt32(bytes, 44));
        Assert.Equal(42L, BitConverter.ToInt64(bytes, 4096));
        Assert.Equal(43L, BitConverter.ToInt64(bytes, 4104));
    }

    private void RoundTrip<T>(MappingBackend backend, DataType expectedCode, Func<long, T> valueAt)
        where T : unmanaged
    {
        string path = _directory.File($"{typeof(T).Name}.bin");
        using (var writer = new ListMmf<T>(path, FileAccess.ReadWrite, Backends.Options(backend)))
        {
            for (long i = 0; i < Items; i++)
            {
                writer.Add(valueAt(i));
            }
        }

        using var reader = new ListMmf<T>(path, FileAccess.Read, Backends.Options(backend));
        Assert.Equal(expectedCode, reader.DataType);
        Assert.Equal(Items, reader.Count);
        for (long i = 0; i < Items; i++)
        {
            Assert.Equal(valueAt(i), reader[i]);
        }
    }
}
