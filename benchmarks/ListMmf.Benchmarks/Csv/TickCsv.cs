using System.Globalization;
using System.IO;
using System.Text;

namespace ListMmf.Benchmarks.Csv;

/// <summary>
/// A generated three-column tick CSV, <c>time,price,size</c>: Unix seconds, three ticks a second from 2024-01-02
/// 09:30; prices in quarter points and sizes, written invariant in .NET's shortest round-trip form, <c>\n</c> line
/// ends, so that an import and an export with <c>--time-format unix</c> give back the same bytes.
/// </summary>
internal static class TickCsv
{
    /// <summary>The first row's time, 2024-01-02 09:30 UTC in Unix seconds.</summary>
    public const long FirstTime = 1704187800;

    public const string ImportArguments = "--time time --column price:double --column size:int --order ascending-or-equal";

    public static void Write(string path, long rows)
    {
        using var writer = new StreamWriter(path, append: false, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false), bufferSize: 1 << 20) { NewLine = "\n" };
        writer.WriteLine("time,price,size");
        var random = new Data.SplitMix64(7);
        double price = 4500;
        for (long i = 0; i < rows; i++)
        {
            price = System.Math.Max(100, price + (((int)random.Below(9) - 4) * 0.25));
            writer.Write((FirstTime + (i / 3)).ToString(CultureInfo.InvariantCulture));
            writer.Write(',');
            writer.Write(price.ToString(CultureInfo.InvariantCulture));
            writer.Write(',');
            writer.WriteLine((random.Below(200) + 1).ToString(CultureInfo.InvariantCulture));
        }
    }
}
