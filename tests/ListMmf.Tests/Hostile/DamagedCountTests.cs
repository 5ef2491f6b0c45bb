using System;
using System.IO;
using System.Linq;
using Xunit;

namespace ListMmf.Tests.Hostile;

/// <summary>
/// Another program overwrites the count in the header of an open file. Whatever it writes, every append and every
/// count read refuses with <see cref="ListMmfFormatException"/> naming the file, and nothing outside the count is
/// written: no wild index, no crash.
/// </summary>
public sealed class DamagedCountTests : IDisposable
{
    private static readonly int[] Items = [10, 20, 30, 40, 50];
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("damaged.bin");

    /// <summary>The damaged counts, by name, on each backend; "capacity+1" is resolved against the open list.</summary>
    public static TheoryData<MappingBackend, string> Damages()
    {
        var data = new TheoryData<MappingBackend, string>();
        foreach (MappingBackend backend in OperatingSystem.IsWindows() ? [MappingBackend.MemoryMappedFile] : new[] { MappingBackend.Posix, MappingBackend.MemoryMappedFile })
        {
            foreach (string damage in new[] { "-1", "-2", "-3", "long.MinValue", "capacity+1", "long.MaxValue-3", "long.MaxValue" })
            {
                data.Add(backend, damage);
            }
        }

        return data;
    }

    [Theory, MemberData(nameof(Damages))]
    public void AddRangeOnADamagedCountThrowsAndWritesNothing(MappingBackend backend, string damage)
    {
        using var writer = OpenWriterWithItems(backend);
        byte[] before = Damage(writer, damage);

        var exception = Assert.Throws<ListMmfFormatException>(() => writer.AddRange([7, 8, 9]));

        Assert.Equal(writer.Path, exception.FilePath);
        AssertOnlyTheCountChanged(before);
    }

    [Theory, MemberData(nameof(Damages))]
    public void AddOnADamagedCountThrowsAndWritesNothing(MappingBackend backend, string damage)
    {
        using var writer = OpenWriterWithItems(backend);
        byte[] before = Damage(writer, damage);

        var exception = Assert.Throws<ListMmfFormatException>(() => writer.Add(7));

        Assert.Equal(writer.Path, exception.FilePath);
        AssertOnlyTheCountChanged(before);
    }

    [Theory, MemberData(nameof(Damages))]
    public void ReaderCountOfADamagedCountThrowsInsteadOfClamping(MappingBackend backend, string damage)
    {
        using var writer = OpenWriterWithItems(backend);
        using var reader = new ListMmf<int>(FilePath, FileAccess.Read, Backends.Options(backend));
        Damage(writer, damage);

        var exception = Assert.Throws<ListMmfFormatException>(() => reader.Count);

        Assert.Equal(reader.Path, exception.FilePath);
    }

    [Theory, MemberData(nameof(Damages))]
    public void WriterCountOfADamagedCountThrows(MappingBackend backend, string damage)
    {
        using var writer = OpenWriterWithItems(backend);
        Damage(writer, damage);

        Assert.Throws<ListMmfFormatException>(() => writer.Count);
    }

    /// <summary>Where the writer's file keeps its items (a version 2 header takes 4 KiB).</summary>
    private int _itemsOffset;

    private ListMmf<int> OpenWriterWithItems(MappingBackend backend)
    {
        var writer = new ListMmf<int>(FilePath, FileAccess.ReadWrite, Backends.Options(backend));
        writer.AddRange(Items);
        _itemsOffset = writer.Storage.ItemsOffset;
        return writer;
    }

    /// <summary>Writes the damaged count through the file, as another process would; returns the file's bytes after.</summary>
    private byte[] Damage(ListMmf<int> writer, string damage)
    {
        long count = damage switch
        {
            "long.MinValue" => long.MinValue,
            "capacity+1" => writer.Capacity + 1,
            "long.MaxValue-3" => long.MaxValue - 3,
            "long.MaxValue" => long.MaxValue,
            _ => long.Parse(damage, System.Globalization.CultureInfo.InvariantCulture),
        };
        using (var file = new FileStream(FilePath, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete))
        {
            file.Position = 8;
            file.Write(BitConverter.GetBytes(count));
        }

        return ReadBesideTheWriter();
    }

    /// <summary>The file's bytes, read with the sharing a file open for writing needs on Windows (File.ReadAllBytes asks for read sharing only).</summary>
    private byte[] ReadBesideTheWriter()
    {
        using var file = new FileStream(FilePath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        byte[] bytes = new byte[file.Length];
        file.ReadExactly(bytes);
        return bytes;
    }

    private void AssertOnlyTheCountChanged(byte[] damaged)
    {
        byte[] after = ReadBesideTheWriter();
        Assert.Equal(damaged.Length, after.Length);
        Assert.True(damaged.AsSpan().SequenceEqual(after), "bytes of the file changed after the damage: something was written through the damaged count");
        Assert.Equal(Items, Enumerable.Range(0, Items.Length).Select(i => BitConverter.ToInt32(after, _itemsOffset + (4 * i))));
    }
}
