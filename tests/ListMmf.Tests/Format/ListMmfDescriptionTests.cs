using System;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;
using Xunit;

namespace ListMmf.Tests.Format;

/// <summary>
/// The description a struct file, sorted list or time series keeps beside it: what it records, and the wrong opens it
/// refuses. Files without one (ListMmf 1.x) open as before.
/// </summary>
public sealed unsafe class ListMmfDescriptionTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string FilePath => _directory.File("items.bin");

    private string DescriptionPath => ListMmfDescription.PathFor(FilePath);

    /// <summary>Both formats: version 1 records the description beside the file, version 2 in its header.</summary>
    public static TheoryData<ListMmfFormatVersion> Formats => [ListMmfFormatVersion.Version1, ListMmfFormatVersion.Version2];

    [Theory, MemberData(nameof(Formats))]
    public void AStructFileOpenedAsAStructOfAnotherSizeIsRefusedNamingBothSizes(ListMmfFormatVersion format)
    {
        WriteQuotes(format);
        byte[] before = File.ReadAllBytes(FilePath);

        var refused = Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<Tick>(FilePath, FileAccess.Read));

        Assert.Contains("items of 32 bytes", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Tick is 20 bytes", refused.Message, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllBytes(FilePath));
    }

    [Theory, MemberData(nameof(Formats))]
    public void AWriterOfAStructOfAnotherSizeIsRefusedAndWritesNothing(ListMmfFormatVersion format)
    {
        WriteQuotes(format);
        byte[] before = File.ReadAllBytes(FilePath);

        Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<Tick>(FilePath));

        Assert.Equal(before, File.ReadAllBytes(FilePath));
    }

    [Fact]
    public void AVersion2StructFileCopiedAloneRefusesAStructOfAnotherLayout()
    {
        WriteQuotes(ListMmfFormatVersion.Version2);
        string copy = _directory.File("copied.bin");
        File.Copy(FilePath, copy);

        var refused = Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<ReorderedQuote>(copy, FileAccess.Read));

        Assert.False(File.Exists(ListMmfDescription.PathFor(copy)), "nothing beside the copy describes it");
        Assert.Contains("as its header records", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'Time' (Int64, 8 bytes at offset 0) in the file", refused.Message, StringComparison.Ordinal);
        Assert.Equal(nameof(Quote), ListMmfDescription.Read(copy)!.ItemType);
    }

    [Theory, MemberData(nameof(Formats))]
    public void AStructFileOpenedAsAStructOfTheSameSizeButAnotherLayoutIsRefusedNamingTheField(ListMmfFormatVersion format)
    {
        WriteQuotes(format);

        var refused = Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<ReorderedQuote>(FilePath, FileAccess.Read));

        Assert.Contains("'Time' (Int64, 8 bytes at offset 0) in the file", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'Bid' (Double, 8 bytes at offset 0) in the type", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ASealedStructFileOpenedAsAStructOfTheSameSizeButAnotherLayoutIsRefusedAsBeforeTheSeal()
    {
        WriteQuotes(ListMmfFormatVersion.Version2);
        SealedListMmf.Seal(FilePath);

        var refused = Assert.Throws<ListMmfDataTypeException>(() => new SealedListMmf<ReorderedQuote>(FilePath));

        Assert.Contains("as its sealed header records", refused.Message, StringComparison.Ordinal);
        Assert.Contains("'Bid' (Double, 8 bytes at offset 0) in the type", refused.Message, StringComparison.Ordinal);
        using var renamed = new SealedListMmf<RenamedQuote>(FilePath);
        Assert.Equal(2, renamed.Count);
    }

    [Theory, MemberData(nameof(Formats))]
    public void AStructWithRenamedFieldsOfTheSameLayoutOpens(ListMmfFormatVersion format)
    {
        WriteQuotes(format);

        using var renamed = new ListMmf<RenamedQuote>(FilePath, FileAccess.Read);

        Assert.Equal(4000.25, renamed[1].BidPrice);
    }

    [Fact]
    public void AVersion2HeaderWhoseDescriptionOutgrowsTheFirstReadIsReadWholeAndChecked()
    {
        using (var writer = new ListMmf<WideQuote>(FilePath, FileAccess.ReadWrite))
        {
            writer.Add(new WideQuote { BidPrice1 = 4000, AskPrice8 = 4002 });
        }

        using (var file = File.OpenHandle(FilePath))
        {
            Assert.True(ListMmfHeader.ReadConsistent(file, FilePath, out _).Description.Length > 1024);
        }

        using var reader = new ListMmf<WideQuote>(FilePath, FileAccess.Read);
        Assert.Equal(4002, reader[0].AskPrice8);
        Assert.Equal(16, ListMmfDescription.Read(FilePath)!.Fields.Count);
        Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<ReorderedWideQuote>(FilePath, FileAccess.Read));
    }

    [Fact]
    public void AStructFileWithoutADescriptionOpensUnchecked()
    {
        WriteQuotes(ListMmfFormatVersion.Version1);
        File.Delete(DescriptionPath);

        using var list = new ListMmf<Tick>(FilePath, FileAccess.Read);

        Assert.Null(list.Description);
    }

    [Fact]
    public void AStructFileWhoseDescriptionRecordsNoFieldsOpensCheckingTheSizeOnly()
    {
        WriteQuotes(ListMmfFormatVersion.Version1);
        WithoutFields();

        using var quotes = new ListMmf<Quote>(FilePath, FileAccess.Read);
        var refused = Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<Tick>(FilePath, FileAccess.Read));

        Assert.Equal(4000.25, quotes[1].Bid);
        Assert.Contains("Tick is 20 bytes", refused.Message, StringComparison.Ordinal);
    }

    [Theory, MemberData(nameof(Formats))]
    public void AStructWhoseFieldsCannotBeSeenOpensAFileThatRecordsThemCheckingTheSizeOnly(ListMmfFormatVersion format)
    {
        WriteQuotes(format);

        using var hidden = new ListMmf<HiddenQuote>(FilePath, FileAccess.Read);

        Assert.Equal(2, hidden.Count);
        Assert.NotEmpty(hidden.Description!.Fields);
    }

    [Fact]
    public void AStructHoldingAStructWhoseFieldsCannotBeSeenRecordsNoFields()
    {
        using (var list = new ListMmf<HoldsEmpty>(FilePath))
        {
            list.Add(new HoldsEmpty { Price = 1.5 });
        }

        ListMmfDescription description = ListMmfDescription.Read(FilePath)!;

        Assert.Empty(description.Fields);
        Assert.Equal(Unsafe.SizeOf<HoldsEmpty>(), description.ItemSize);
    }

    [Fact]
    public void TheDescriptionRecordsTheFieldsWhereTheRuntimePutsThem()
    {
        using (var list = new ListMmf<Mixed>(FilePath))
        {
            list.Add(default);
        }

        ListMmfDescription description = ListMmfDescription.Read(FilePath)!;
        var item = default(Mixed);

        Assert.Equal(sizeof(Mixed), description.ItemSize);
        Assert.Equal(nameof(Mixed), description.ItemType);
        Assert.Equal(
            new[]
            {
                new ListMmfField("Flag", At(ref item, ref item.Flag), 1, "Boolean"),
                new ListMmfField("Letter", At(ref item, ref item.Letter), 2, "Char"),
                new ListMmfField("Price", At(ref item, ref item.Price), 8, "Double"),
                new ListMmfField("Inner.Count", At(ref item, ref item.Inner.Count), 4, "Int32"),
                new ListMmfField("Inner.Side", At(ref item, ref item.Inner.Side), 1, "Byte"),
                new ListMmfField("Symbol", At(ref item, ref item.Symbol[0]), 8, "Byte[8]"),
                new ListMmfField("Stamp", At(ref item, ref item.Stamp), 8, "DateTime"),
                new ListMmfField("Size", At(ref item, ref item.Size), 8, "Int64"),
            }.OrderBy(field => field.Offset),
            description.Fields);
    }

    [Fact]
    public void ABoolOrDecimalListRecordsItsValue()
    {
        using (new ListMmf<decimal>(FilePath))
        {
        }

        ListMmfDescription description = ListMmfDescription.Read(FilePath)!;
        Assert.Equal([new ListMmfField("value", 0, 16, "Decimal")], description.Fields);
    }

    [Fact]
    public void TheWriterOfAnEmptyFileReplacesADescriptionLeftByADeletedFile()
    {
        WriteQuotes(ListMmfFormatVersion.Version1);
        File.Delete(FilePath);

        using (var ticks = new ListMmf<Tick>(FilePath))
        {
            ticks.Add(new Tick { Time = 1 });
        }

        Assert.Equal(nameof(Tick), ListMmfDescription.Read(FilePath)!.ItemType);
        Assert.Throws<ListMmfDataTypeException>(() => new ListMmf<Quote>(FilePath, FileAccess.Read));
    }

    [Fact]
    public void APrimitiveListKeepsNoDescription()
    {
        using (var list = new ListMmf<double>(FilePath))
        {
            list.Add(1);
        }

        Assert.False(File.Exists(DescriptionPath));
    }

    [Fact]
    public void ListMmfOfDateTimeIsRefusedPointingToTheTimeSeries()
    {
        var refused = Assert.Throws<NotSupportedException>(() => new ListMmf<DateTime>(FilePath));
        Assert.Contains("ListMmfTimeSeriesDateTime", refused.Message, StringComparison.Ordinal);
        Assert.Throws<NotSupportedException>(() => new ListMmf<DateTimeOffset>(FilePath));
        Assert.False(File.Exists(FilePath));
    }

    [Fact]
    public void ADamagedDescriptionIsRefusedNamingItsFile()
    {
        WriteQuotes(ListMmfFormatVersion.Version1);
        File.WriteAllText(DescriptionPath, "{ \"format\": \"listmmf-description\", \"version\": 1 }");

        var refused = Assert.Throws<ListMmfFormatException>(() => new ListMmf<Quote>(FilePath, FileAccess.Read));

        Assert.Contains(DescriptionPath, refused.Message, StringComparison.Ordinal);
        Assert.Contains("\"itemSize\" is missing", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void VerifyChecksTheOrderTheFileRecordsNotTheOneItIsOpenedWith()
    {
        using (var written = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual))
        {
            written.AddRange([1, 2, 2]);
        }

        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read);

        list.Verify();
        Assert.Equal(TimeSeriesOrder.AscendingOrEqual, ListMmfDescription.Read(FilePath)!.Order);
    }

    [Fact]
    public void AppendsKeepTheStricterOfTheRecordedOrderAndTheOneOpenedWith()
    {
        using (var written = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending))
        {
            written.Add(1);
        }

        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual);

        Assert.Throws<ListMmfOrderException>(() => list.Add(1));
        list.Add(2);
        Assert.Equal(2, list.Count);
    }

    [Fact]
    public void VerifyOfAFileThatRecordsNoOrderChecksTheOrderItIsOpenedWith()
    {
        using (var written = new SortedListMmf<int>(FilePath, TimeSeriesOrder.AscendingOrEqual, FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = ListMmfFormatVersion.Version1 }))
        {
            written.AddRange([1, 2, 2]);
        }

        File.Delete(DescriptionPath);
        using var list = new SortedListMmf<int>(FilePath, TimeSeriesOrder.Ascending, FileAccess.Read);

        var corrupt = Assert.Throws<ListMmfOrderException>(list.Verify);
        Assert.Equal(2, corrupt.Index);
        Assert.Contains("or was written in a weaker order", corrupt.Message, StringComparison.Ordinal);
    }

    private static int At<TField>(ref Mixed item, ref TField field) =>
        (int)Unsafe.ByteOffset(ref Unsafe.As<Mixed, byte>(ref item), ref Unsafe.As<TField, byte>(ref field));

    private void WriteQuotes(ListMmfFormatVersion format)
    {
        using var quotes = new ListMmf<Quote>(FilePath, FileAccess.ReadWrite, new ListMmfOptions { FormatVersion = format });
        quotes.Add(new Quote { Time = 1, Bid = 4000, Ask = 4000.25, Size = 3 });
        quotes.Add(new Quote { Time = 2, Bid = 4000.25, Ask = 4000.5, Size = 1 });
    }

    /// <summary>Rewrites the description as a writer that cannot see Quote's fields records it: the size alone.</summary>
    private void WithoutFields()
    {
        var node = System.Text.Json.Nodes.JsonNode.Parse(File.ReadAllText(DescriptionPath))!.AsObject();
        Assert.True(node.Remove("fields"));
        File.WriteAllText(DescriptionPath, node.ToJsonString());
    }

    public struct Quote
    {
        public long Time;
        public double Bid;
        public double Ask;
        public int Size;
    }

    /// <summary>A book of eight levels: a description longer than a header's first read.</summary>
    public struct WideQuote
    {
        public double BidPrice1, BidPrice2, BidPrice3, BidPrice4, BidPrice5, BidPrice6, BidPrice7, BidPrice8;
        public double AskPrice1, AskPrice2, AskPrice3, AskPrice4, AskPrice5, AskPrice6, AskPrice7, AskPrice8;
    }

    /// <summary><see cref="WideQuote"/>'s size, its last field a long: the layout differs only past the first read.</summary>
    public struct ReorderedWideQuote
    {
        public double BidPrice1, BidPrice2, BidPrice3, BidPrice4, BidPrice5, BidPrice6, BidPrice7, BidPrice8;
        public double AskPrice1, AskPrice2, AskPrice3, AskPrice4, AskPrice5, AskPrice6, AskPrice7;
        public long AskSize8;
    }

    public struct RenamedQuote
    {
        public long Stamp;
        public double BidPrice;
        public double AskPrice;
        public int Quantity;
    }

    public struct ReorderedQuote
    {
        public double Bid;
        public long Time;
        public double Ask;
        public int Size;
    }

    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential, Pack = 4)]
    public struct Tick
    {
        public long Time;
        public double Price;
        public int Size;
    }

    public struct Mixed
    {
        public bool Flag;
        public char Letter;
        public double Price;
        public Inner Inner;
        public fixed byte Symbol[8];
        public DateTime Stamp;
        public long Size;
    }

    /// <summary>A struct whose fields reflection cannot see, as under NativeAOT without them kept.</summary>
    public struct Empty
    {
    }

    /// <summary>Quote's size, as a process that cannot see Quote's fields has it.</summary>
    [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Sequential, Size = 32)]
    public struct HiddenQuote
    {
        public Empty Nothing;
    }

    public struct HoldsEmpty
    {
        public double Price;
        public Empty Nothing;
    }

    public struct Inner
    {
        public int Count;
        public byte Side;
    }
}
