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

    /// <summary>The time of row <paramref name="row"/>: three rows a second from <see cref="FirstTime"/>.</summary>
    public static int TimeOf(long row) => (int)(FirstTime + (row / 3));

    /// <summary>
    /// The first of <paramref name="rows"/> rows whose time is at or after <paramref name="time"/> (or
    /// <paramref name="rows"/>): what a lookup must answer, known without reading any store.
    /// </summary>
    public static long FirstRowAtOrAfter(int time, long rows) => System.Math.Clamp(3 * (time - FirstTime), 0, rows);

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
            writer.Write(TimeOf(i).ToString(CultureInfo.InvariantCulture));
            writer.Write(',');
            writer.Write(price.ToString(CultureInfo.InvariantCulture));
            writer.Write(',');
            writer.WriteLine((random.Below(200) + 1).ToString(CultureInfo.InvariantCulture));
        }
    }
}
