using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using ListMmf;

// write (NativeAOT): a list of Quote, whose fields this program keeps for reflection, and one of Hidden, whose fields
// it does not keep; every number type through the visitor. check (JIT): both open, the Quote description is the one
// the JIT records, Hidden's records the size only; the JIT writes a Hidden list of its own. read (NativeAOT): that
// list, whose description records fields this process cannot see, opens on its size.
string mode = args[0];
string folder = args[1];
Directory.CreateDirectory(folder);
string quotes = Path.Combine(folder, "quotes.mmf");
string hidden = Path.Combine(folder, "hidden.mmf");
string jitHidden = Path.Combine(folder, "hidden-jit.mmf");
var quote = new Quote { Time = new DateTime(2024, 1, 2, 9, 30, 0), Bid = 4000.25, Size = 3, Live = true, Side = 'B' };
var secret = new Hidden { Sequence = 42, Price = 1.5 };

switch (mode)
{
    case "write":
        Keep.QuoteFields();
        Write(quotes, quote);
        Write(hidden, secret);
        Require(ListMmfDescription.Read(quotes)!.Fields.Count == 5, "the Quote description records its 5 fields");
        Require(ListMmfDescription.Read(hidden)!.Fields.Count == 0, "the Hidden description records the size only");
        foreach (DataTypeInfo type in DataTypeInfo.All.Where(type => type.IsNumber && !type.IsTime))
        {
            Require(type.Accept(new RoundTrip(folder)), $"a list of {type.Name} keeps its largest value");
        }

        break;
    case "check":
        Require(Read<Quote>(quotes).Equals(quote), "the JIT reads the NativeAOT Quote list");
        Require(Read<Hidden>(hidden).Equals(secret), "the JIT reads the NativeAOT Hidden list");
        string jitQuotes = Path.Combine(folder, "quotes-jit.mmf");
        Write(jitQuotes, quote);
        Require(
            ListMmfDescription.Read(jitQuotes)!.Fields.SequenceEqual(ListMmfDescription.Read(quotes)!.Fields),
            "NativeAOT and the JIT record the same Quote layout");
        Write(jitHidden, secret);
        Require(ListMmfDescription.Read(jitHidden)!.Fields.Count == 2, "the JIT records Hidden's 2 fields");
        break;
    case "read":
        Require(Read<Hidden>(jitHidden).Equals(secret), "NativeAOT reads the JIT Hidden list on its size");
        break;
    default:
        throw new ArgumentException($"unknown mode '{mode}': write, check or read");
}

Console.WriteLine($"aot probe {mode}: ok");

static void Write<T>(string path, T item)
    where T : unmanaged
{
    File.Delete(path);
    File.Delete(ListMmfDescription.PathFor(path));
    using var list = new ListMmf<T>(path);
    list.Add(item);
}

static T Read<T>(string path)
    where T : unmanaged
{
    using var list = new ListMmf<T>(path, FileAccess.Read);
    return list[0];
}

static void Require(bool condition, string what)
{
    if (!condition)
    {
        throw new InvalidOperationException($"aot probe: expected {what}");
    }
}

internal record struct Quote(DateTime Time, double Bid, int Size, bool Live, char Side);

internal record struct Hidden(long Sequence, double Price);

internal sealed record RoundTrip(string Folder) : IDataTypeVisitor<bool>
{
    public bool Visit<T>(DataTypeInfo type)
        where T : unmanaged, INumber<T>, IMinMaxValue<T>
    {
        string path = Path.Combine(Folder, type.Name + ".mmf");
        File.Delete(path);
        using var list = new ListMmf<T>(path);
        list.Add(T.MaxValue);
        return list[0] == T.MaxValue && list.DataType == type.DataType;
    }
}

/// <summary>What an application does to have NativeAOT keep a struct's fields, as the guide shows.</summary>
internal static class Keep
{
    [DynamicDependency(DynamicallyAccessedMemberTypes.PublicFields | DynamicallyAccessedMemberTypes.NonPublicFields, typeof(Quote))]
    internal static void QuoteFields()
    {
    }
}
