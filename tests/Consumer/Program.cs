using System.Diagnostics;
using System.Globalization;
using ListMmf;

// The engine's two lines against the package, then a reader in a second process that must see what was written.
if (args is ["read", string path, string expected])
{
    using var reader = ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, TimeSeriesOrder.Ascending);
    long found = reader.LowerBound(new DateTime(2024, 1, 2, 9, 30, 30));
    Console.WriteLine($"reader: Count {reader.Count}, LowerBound {found}");
    return reader.Count == 100 && found == long.Parse(expected, CultureInfo.InvariantCulture) ? 0 : 1;
}

string filePath = Path.Combine(Path.GetTempPath(), $"consumer-{Environment.ProcessId}.bt");
try
{
    DateTime searchTime = new(2024, 1, 2, 9, 30, 30);
    long index;
    using (var mmfTimestamps = new ListMmfTimeSeriesDateTimeSeconds(filePath, TimeSeriesOrder.Ascending))
    {
        for (int i = 0; i < 100; i++)
        {
            mmfTimestamps.Add(new DateTime(2024, 1, 2, 9, 30, 0).AddSeconds(i));
        }

        index = mmfTimestamps.LowerBound(searchTime);
    }

    Console.WriteLine($"{System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}: LowerBound {index}");
    // Run as "dotnet Consumer.dll" the host needs the assembly first; run as an apphost, it does not.
    string host = Environment.ProcessPath!;
    string[] childArgs = Path.GetFileNameWithoutExtension(host) == "dotnet"
        ? [typeof(Program).Assembly.Location, "read", filePath, index.ToString(CultureInfo.InvariantCulture)]
        : ["read", filePath, index.ToString(CultureInfo.InvariantCulture)];
    using Process child = Process.Start(host, childArgs)!;
    child.WaitForExit();
    return index == 30 && child.ExitCode == 0 ? 0 : 1;
}
finally
{
    File.Delete(filePath);
    File.Delete(filePath + ".writer-lock");
}
