using System;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Text.Json.Nodes;
using ListMmf.TestHost;
using Xunit;

namespace ListMmf.Tests.Python;

/// <summary>A fact that needs a Python with pandas (python3 on the PATH, else Debian's /usr/bin/python3); without one it reports as skipped.</summary>
public sealed class PandasFactAttribute : FactAttribute
{
    /// <summary>The interpreter that imports pandas, or null.</summary>
    public static readonly Lazy<string?> Python = new(() => PythonProcess.FirstThatImports("pandas"));

    public PandasFactAttribute()
    {
        if (Python.Value is null)
        {
            Skip = "needs a python3 that imports pandas (Debian: apt-get install python3-pandas; .ci/run installs it)";
        }
    }
}

/// <summary>The Python reader hands a table this library wrote to pandas, and its own pandas tests run (not skip) with that interpreter.</summary>
public sealed class PandasTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [PandasFact]
    public void ATableWrittenHereBecomesADataFrameOfTheSameRows()
    {
        string folder = _directory.File("ticks");
        using (TimeSeriesTable table = TimeSeriesTable.Create(folder, TickTable.Schema()))
        {
            for (long row = 0; row < 1000; row++)
            {
                TickTable.AddRow(table, row);
            }
        }

        const string Script = """
            import json, os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            frame = listmmf.to_pandas(sys.argv[1])
            print(json.dumps({
                "columns": list(frame.columns), "rows": len(frame), "dtypes": [str(t) for t in frame.dtypes],
                "first": frame["time"].iloc[0].isoformat(), "last": frame["time"].iloc[-1].isoformat(),
                "price": float(frame["price"].sum()), "size": int(frame["size"].sum()), "sequence": int(frame["sequence"].sum())}))
            """;
        (int exitCode, string output) = Run(["-c", Script, folder]);

        Assert.True(exitCode == 0, output);
        JsonNode result = JsonNode.Parse(output)!;
        Assert.Equal(["time", "price", "size", "sequence"], result["columns"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(1000, result["rows"]!.GetValue<int>());
        string[] dtypes = result["dtypes"]!.AsArray().Select(n => n!.GetValue<string>()).ToArray();

        // pandas 2 keeps datetime64[s]; pandas 1 makes every datetime64 column nanoseconds.
        Assert.StartsWith("datetime64[", dtypes[0], StringComparison.Ordinal);
        Assert.Equal(["float64", "int32", "int64"], dtypes[1..]);
        Assert.Equal(TickTable.Time(0).ToString("s", CultureInfo.InvariantCulture), result["first"]!.GetValue<string>());
        Assert.Equal(TickTable.Time(999).ToString("s", CultureInfo.InvariantCulture), result["last"]!.GetValue<string>());
        Assert.Equal(Enumerable.Range(0, 1000).Sum(row => TickTable.Price(row)), result["price"]!.GetValue<double>());
        Assert.Equal(Enumerable.Range(0, 1000).Sum(row => (long)TickTable.Size(row)), result["size"]!.GetValue<long>());
        Assert.Equal(Enumerable.Range(0, 1000).Sum(row => TickTable.Sequence(row)), result["sequence"]!.GetValue<long>());
    }

    [PandasFact]
    public void ASealedTableBecomesTheSameDataFrameAsBeforeItsSeal()
    {
        string folder = _directory.File("ticks");
        using (TimeSeriesTable table = TimeSeriesTable.Create(folder, TickTable.Schema()))
        {
            for (long row = 0; row < 3000; row++)
            {
                TickTable.AddRow(table, row);
            }
        }

        const string Script = """
            import os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            print(listmmf.to_pandas(sys.argv[1], start=sys.argv[2], end=sys.argv[3]).to_csv(index=False))
            """;
        string[] arguments = ["-c", Script, folder, TickTable.Time(500).ToString("s", CultureInfo.InvariantCulture),
            TickTable.Time(2500).ToString("s", CultureInfo.InvariantCulture)];
        (int beforeExit, string before) = Run(arguments);
        TimeSeriesTable.Seal(folder);

        (int afterExit, string after) = Run(arguments);

        Assert.True(beforeExit == 0, before);
        Assert.True(afterExit == 0, after);
        Assert.True(after.Split('\n').Length > 1000, after);
        Assert.Equal(before, after);
    }

    [PandasFact]
    public void ATextColumnBecomesACategoricalOfItsDistinctValuesAppendableAndSealed()
    {
        string folder = _directory.File("trades");
        string[] conditions = ["@", "F", "@ T", "Ü", "", "F"];
        string[] rows = [.. Enumerable.Range(0, 3000).Select(row => conditions[(row * row) % conditions.Length])];
        var schema = new TimeSeriesTableSchema("time", DataType.DateTime).AddText("condition", DataType.Byte).Add<double>("price");
        using (TimeSeriesTable table = TimeSeriesTable.Create(folder, schema))
        {
            table.Text("condition").AddRange(rows);
            table.Column<double>("price").AddRange([.. rows.Select((_, row) => (double)row)]);
            table.AddRows([.. rows.Select((_, row) => new DateTime(2024, 1, 2).AddSeconds(row))]);
        }

        const string Script = """
            import json, os, sys
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            frame = listmmf.to_pandas(sys.argv[1])
            column = frame["condition"]
            print(json.dumps({"dtype": str(column.dtype), "categories": list(column.cat.categories),
                              "values": list(column.astype(object))}))
            """;
        (int appendableExit, string appendable) = Run(["-c", Script, folder]);
        TimeSeriesTable.Seal(folder);
        (int sealedExit, string sealedOutput) = Run(["-c", Script, folder]);

        Assert.True(appendableExit == 0, appendable);
        Assert.True(sealedExit == 0, sealedOutput);
        JsonNode result = JsonNode.Parse(appendable)!;
        Assert.Equal("category", result["dtype"]!.GetValue<string>());
        Assert.Equal(rows.Distinct(), result["categories"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(rows, result["values"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(appendable, sealedOutput);
    }

    [PandasFact]
    public void ThePythonPandasTestsRunWithPandas()
    {
        (int exitCode, string output) = Run(["-m", "unittest", "-v", "test_listmmf.TableTests"], workingSubfolder: "tests/python");

        Assert.True(exitCode == 0, output);
        Assert.DoesNotContain("skipped", output, StringComparison.Ordinal);
        Assert.Contains("test_rows_become_a_data_frame", output, StringComparison.Ordinal);
    }

    private static (int ExitCode, string Output) Run(string[] args, string workingSubfolder = "") =>
        PythonProcess.Run(PandasFactAttribute.Python.Value!, args, workingSubfolder);
}
