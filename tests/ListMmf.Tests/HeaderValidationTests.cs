using System;
using System.Buffers.Binary;
using System.IO;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// Opening checks everything it trusts in the header; a bad file gets a specific exception that names it and is
/// left byte-for-byte as it was, whether opened by a reader or by the writer.
/// </summary>
public sealed class HeaderValidationTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<MappingBackend, FileAccess> Openers
    {
        get
        {
            var data = new TheoryData<MappingBackend, FileAccess>();
            foreach (MappingBackend backend in Backends.All)
            {
                data.Add(backend, FileAccess.Read);
                data.Add(backend, FileAccess.ReadWrite);
            }

            return data;
        }
    }

    [Theory, MemberData(nameof(Openers))]
    public void EmptyFileIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, int>([], backend, access, "shorter than the 16-byte");

    [Theory, MemberData(nameof(Openers))]
    public void FileShorterThanTheHeaderIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, int>(new byte[15], backend, access, "15 bytes long");

    [Theory, MemberData(nameof(Openers))]
    public void UnknownVersionIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, int>(File(version: 3, DataType.Int32, count: 0, length: 64), backend, access, "version 3");

    [Theory, MemberData(nameof(Openers))]
    public void UnknownDataTypeCodeIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, int>(File(0, (DataType)99, count: 0, length: 64), backend, access, "data-type code 99");

    [Theory, MemberData(nameof(Openers))]
    public void NegativeCountIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, int>(File(0, DataType.Int32, count: -1, length: 64), backend, access, "negative count");

    [Theory, MemberData(nameof(Openers))]
    public void CountPastTheEndOfTheFileIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, int>(File(0, DataType.Int32, count: 13, length: 16 + (12 * 4)), backend, access, "claims 13 items");

    [Theory, MemberData(nameof(Openers))]
    public void HugeCountDoesNotOverflowIntoAcceptance(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, long>(File(0, DataType.Int64, count: long.MaxValue / 4, length: 64), backend, access, "claims");

    [Theory, MemberData(nameof(Openers))]
    public void OtherItemTypeIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfDataTypeException, int>(File(0, DataType.Int64, count: 2, length: 64), backend, access, "ListMmf<Int32>");

    [Theory, MemberData(nameof(Openers))]
    public void SameSizeButOtherTypeIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfDataTypeException, int>(File(0, DataType.Single, count: 2, length: 64), backend, access, "Single");

    [Theory, MemberData(nameof(Openers))]
    public void BitFileIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfDataTypeException, byte>(File(0, DataType.Bit, count: 2, length: 64), backend, access, "Bit");

    [Theory, MemberData(nameof(Openers))]
    public void StructOfAnotherWidthThanTheCodeIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfDataTypeException, Quote192>(File(0, DataType.Int24, count: 2, length: 64), backend, access, "Int24");

    [Theory, MemberData(nameof(Openers))]
    public void AnyStructCountPastTheEndIsRejected(MappingBackend backend, FileAccess access) =>
        AssertRejected<ListMmfFormatException, Quote192>(File(0, DataType.AnyStruct, count: 2, length: 16 + 192 + 100), backend, access, "192 bytes");

    [Theory, MemberData(nameof(Openers))]
    public void UnixSecondsFileOpensAsInt32(MappingBackend backend, FileAccess access)
    {
        string path = WriteFile(File(0, DataType.UnixSeconds, count: 2, length: 16 + 8, items: [1_700_000_000, 1_700_000_001]));
        using var list = new ListMmf<int>(path, access, Backends.Options(backend));
        Assert.Equal(DataType.UnixSeconds, list.DataType);
        Assert.Equal(1_700_000_001, list[1]);
    }

    [Theory, MemberData(nameof(Openers))]
    public void ExactlyFullFileWithoutSpareCapacityOpens(MappingBackend backend, FileAccess access)
    {
        string path = WriteFile(File(0, DataType.Int32, count: 3, length: 16 + 12, items: [5, 6, 7]));
        using var list = new ListMmf<int>(path, access, Backends.Options(backend));
        Assert.Equal(3, list.Count);
        Assert.Equal(7, list[2]);
    }

    private static byte[] File(int version, DataType dataType, long count, int length, int[]? items = null)
    {
        var bytes = new byte[length];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, version);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(4), (int)dataType);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(8), count);
        for (int i = 0; items is not null && i < items.Length; i++)
        {
            BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(16 + (4 * i)), items[i]);
        }

        return bytes;
    }

    private string WriteFile(byte[] contents)
    {
        string path = _directory.File("bad.bin");
        System.IO.File.WriteAllBytes(path, contents);
        return path;
    }

    private void AssertRejected<TException, T>(byte[] contents, MappingBackend backend, FileAccess access, string problem)
        where TException : ListMmfException
        where T : unmanaged
    {
        string path = WriteFile(contents);
        DateTime modified = System.IO.File.GetLastWriteTimeUtc(path);

        var exception = Assert.Throws<TException>(() => new ListMmf<T>(path, access, Backends.Options(backend)));

        Assert.Equal(path, exception.FilePath);
        Assert.Contains(path, exception.Message, StringComparison.Ordinal);
        Assert.Contains(problem, exception.Message, StringComparison.Ordinal);
        Assert.Equal(contents, System.IO.File.ReadAllBytes(path));
        Assert.Equal(modified, System.IO.File.GetLastWriteTimeUtc(path));
    }
}
