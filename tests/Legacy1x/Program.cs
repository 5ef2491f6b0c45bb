using System;
using BruSoftware.ListMmf;

// ListMmf 1.3.0 on a file, as its users call it: "read PATH" prints the count its reader sees, "write PATH N" appends
// N values as its writer, "hold PATH" opens its writer and keeps it until a line arrives on standard input. A refusal
// is printed to standard error as "refused: TYPE: MESSAGE", exit code 1.
try
{
    string path = args[1];
    switch (args[0])
    {
        case "read":
        {
            using var reader = new ListMmf<long>(path, DataType.Int64, isReadOnly: true);
            Console.WriteLine(reader.Count);
            return 0;
        }

        case "write":
        {
            using var writer = new ListMmf<long>(path, DataType.Int64);
            for (long i = 0; i < long.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture); i++)
            {
                writer.Add(1_000_000 + i);
            }

            Console.WriteLine(writer.Count);
            return 0;
        }

        case "hold":
        {
            using var writer = new ListMmf<long>(path, DataType.Int64);
            Console.WriteLine("held");
            Console.Out.Flush();
            Console.ReadLine();
            return 0;
        }

        default:
            Console.Error.WriteLine($"unknown command '{args[0]}'");
            return 2;
    }
}
#pragma warning disable CA1031 // Every refusal of 1.x is reported the same way, whatever its type.
catch (Exception exception)
#pragma warning restore CA1031
{
    Console.Error.WriteLine($"refused: {exception.GetType().Name}: {exception.Message}");
    return 1;
}
