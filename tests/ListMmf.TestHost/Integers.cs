using System;
using System.Globalization;
using System.IO;
using System.Threading;

namespace ListMmf.TestHost;

/// <summary>
/// The replacement tests' child processes, over an <see cref="IntegerListMmf"/>:
/// <list type="bullet">
/// <item><c>int-widen PATH</c>: creates the list in smallest-width mode, prints "created", waits for a line on
/// standard input, then appends <see cref="Widening"/>(i) for i up to <see cref="WideningCount"/>, whose values force
/// a widening at every step from Byte to Int64; prints the codes it went through.</item>
/// <item><c>int-truncate PATH</c>: creates the list, prints "created", waits for a line, then appends 7 i and drops
/// the oldest values with TruncateBeginning, over and over; prints how often.</item>
/// <item><c>int-read PATH KIND</c>: opens the list, prints "open", then reads it (KIND widen or truncate), checking
/// every value it sees, until a line comes on standard input and it has read at least <see cref="MinimumReads"/>
/// times; prints the codes it saw, the reopenings and the wrong values.</item>
/// </list>
/// </summary>
public static class Integers
{
    public const int WideningCount = 400_000;
    public const int TruncateRounds = 40;

    /// <summary>The reads a reader makes at least, however slowly it was scheduled beside the writer.</summary>
    public const int MinimumReads = 100;

    /// <summary>Small values first, then larger ones every 50,000, then negative ones: Byte, UInt16, UInt24, UInt32, UInt40, UInt48, UInt56, Int64.</summary>
    public static long Widening(long i) => i < 50_000 ? i % 256
        : i < 350_000 ? (i % 50_000) << (int)(8 * (i / 50_000))
        : -i;

    public static int Widen(string path)
    {
        using var list = IntegerListMmf.OpenSmallest(path);
        Ready();
        string codes = list.DataType.ToString();
        for (long i = 0; i < WideningCount; i++)
        {
            list.Add(Widening(i));
            if (!codes.EndsWith(list.DataType.ToString(), StringComparison.Ordinal))
            {
                codes += "," + list.DataType;
            }
        }

        Console.WriteLine($"count={list.Count} codes={codes}");
        return 0;
    }

    public static int Truncate(string path)
    {
        using var list = IntegerListMmf.OpenSmallest(path);
        Ready();
        long next = 0;
        for (int round = 0; round < TruncateRounds; round++)
        {
            for (int i = 0; i < 5_000; i++)
            {
                list.Add(7 * next++);
            }

            list.TruncateBeginning(list.Count / 2);
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"truncations={TruncateRounds} count={list.Count} first={list[0]}"));
        return 0;
    }

    public static int Read(string path, string kind)
    {
        using var list = IntegerListMmf.Open(path, FileAccess.Read);
        Console.WriteLine("open");
        Console.Out.Flush();
        var stop = StopSignal.FromStandardInput();
        string codes = list.DataType.ToString();
        long reads = 0, wrong = 0, reopenings = 0, retries = 0;
        var buffer = new long[4096];
        DataType seen = list.DataType;
        while (!stop.IsSet || reads < MinimumReads)
        {
            long count = list.Count;
            if (list.DataType != seen)
            {
                seen = list.DataType;
                reopenings++;
                codes += "," + seen;
            }

            int length = (int)Math.Min(buffer.Length, count);
            long start = count - length;
            try
            {
                list.CopyTo(start, buffer.AsSpan(0, length));
            }
            catch (ArgumentOutOfRangeException)
            {
                // The list was truncated at its beginning between Count and the read: the indices moved; read again.
                retries++;
                continue;
            }

            reads++;
            for (int i = 0; i < length; i++)
            {
                bool right = kind == "widen"
                    ? buffer[i] == Widening(start + i)
                    : buffer[i] == buffer[0] + (7L * i) && buffer[0] % 7 == 0;
                wrong += right ? 0 : 1;
            }

            Thread.Yield();
        }

        Console.WriteLine($"reads={reads} reopenings={reopenings} retries={retries} wrong={wrong} codes={codes}");
        return wrong == 0 ? 0 : 1;
    }

    private static void Ready()
    {
        Console.WriteLine("created");
        Console.Out.Flush();
        Console.In.ReadLine();
    }
}
