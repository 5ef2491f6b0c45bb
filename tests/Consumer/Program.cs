using System.Diagnostics;
using System.Globalization;
using Apache.Arrow;
using ListMmf;
using ListMmf.Arrow;

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

        // The Arrow package: the series' stored seconds as an Arrow array over the mapping.
        var seconds = (Int32Array)mmfTimestamps.ToArrowArray(new IndexRange(0, 100), ArrowTimeColumn.Stored);
        if (seconds.Length != 100 || seconds.GetValue(30) != 1704187830)
        {
            Console.WriteLine($"Arrow: {seconds.Length} values, [30] = {seconds.GetValue(30)}");
            return 1;
        }
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
    File.Delete(ListMmfDescription.PathFor(filePath));
}
