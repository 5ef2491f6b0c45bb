using ListMmf;

string path = "quick-start-times.bt"; // in the folder it runs in
File.Delete(path);

// One writer per file: the file is created on first open and grows as you add.
using (var times = new ListMmfTimeSeriesDateTimeSeconds(path, TimeSeriesOrder.Ascending))
{
    var open = new DateTime(2024, 3, 12, 13, 30, 0, DateTimeKind.Utc);
    for (int i = 0; i < 1_000; i++)
    {
        times.Add(open.AddSeconds(i));
    }
}

// Any number of readers, in any process, also while the writer appends.
using var reader = ListMmfTimeSeriesDateTimeSeconds.OpenRead(path, TimeSeriesOrder.Ascending);
var target = new DateTime(2024, 3, 12, 13, 45, 0, DateTimeKind.Utc);
long index = reader.LowerBound(target); // the first time at or after the target
Console.WriteLine($"{reader.Count} times; the first at or after {target:HH:mm} is #{index}, {reader[index]:HH:mm:ss}");
