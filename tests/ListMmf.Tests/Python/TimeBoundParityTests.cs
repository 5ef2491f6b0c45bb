using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text.Json.Nodes;
using ListMmf.Tests.Tool;
using Xunit;

namespace ListMmf.Tests.Python;

/// <summary>
/// The Python reader takes and refuses the time bounds the library does: one table of each kind, the same bounds
/// through <c>listmmf search</c> and through <c>to_pandas(start=...)</c>, the same first row or the same refusal.
/// </summary>
public sealed class TimeBoundParityTests : IDisposable
{
    /// <summary>Each bound as the tool takes it, and the Python spellings of the same bound.</summary>
    private static readonly (string Tool, string[] Python)[] Bounds =
    [
        ("2024-01-02T10:00:00", ["'2024-01-02T10:00:00'", "pd.Timestamp('2024-01-02T10:00')", "np.datetime64('2024-01-02T10:00')"]),
        ("2024-01-02T10:00:00Z", ["'2024-01-02T10:00:00Z'", "pd.Timestamp('2024-01-02T10:00', tz='UTC')"]),
        ("2024-01-02T10:00:00+01:00", ["'2024-01-02T10:00:00+01:00'", "'2024-01-02 10:00:00+0100'",
            "datetime.datetime(2024, 1, 2, 10, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))"]),
        ("2024-01-02T10:00:00-05:00", ["pd.Timestamp('2024-01-02T10:00', tz='US/Eastern')", "'2024-01-02T10:00:00-05'"]),
    ];

    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [PandasFact]
    public void ZonedAndPlainBoundsGiveTheSameRowsOrTheSameRefusalInPythonAndDotNet()
    {
        foreach (bool utc in new[] { false, true })
        {
            string table = _directory.File(utc ? "utc" : "clock");
            var schema = new TimeSeriesTableSchema("time", DataType.DateTime, TimeSeriesOrder.Ascending) { TimesAreUtc = utc }.Add<double>("price");
            using (TimeSeriesTable created = TimeSeriesTable.Create(table, schema))
            {
                for (int row = 0; row < 48; row++)
                {
                    created.Column<double>("price").Add(row);
                    created.AddRow(DateTime.SpecifyKind(new DateTime(2024, 1, 2).AddMinutes(30 * row), utc ? DateTimeKind.Utc : DateTimeKind.Unspecified));
                }
            }

            Dictionary<string, string> python = PythonFirstRows(table);
            foreach ((string tool, string[] spellings) in Bounds)
            {
                string expected = ToolFirstRow(table, tool);
                foreach (string spelling in spellings)
                {
                    Assert.True(expected == python[spelling], $"{(utc ? "UTC" : "clock-time")} table, bound {spelling}: " +
                        $"Python gave {python[spelling]}, listmmf search {tool} gave {expected}");
                }
            }
        }
    }

    /// <summary>The first row <c>listmmf search</c> puts at or after the bound, or "refused".</summary>
    private static string ToolFirstRow(string table, string bound)
    {
        ToolResult result = ToolRunner.Run("search", table, bound);
        if (result.ExitCode != 0)
        {
            Assert.Contains("time zone", result.Error);
            return "refused";
        }

        string line = result.Output.Split('\n').First(l => l.StartsWith("LowerBound ", StringComparison.Ordinal));
        return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], NumberStyles.AllowThousands, CultureInfo.InvariantCulture)
            .ToString(CultureInfo.InvariantCulture);
    }

    /// <summary>For every Python spelling of every bound: the first row <c>to_pandas(start=...)</c> keeps, or "refused".</summary>
    private static Dictionary<string, string> PythonFirstRows(string table)
    {
        string spellings = string.Join(", ", Bounds.SelectMany(bound => bound.Python).Select(spelling => $"({Quote(spelling)}, {spelling})"));
        string script = $$"""
            import datetime, json, os, sys
            import numpy as np, pandas as pd
            sys.path.insert(0, os.path.join("src", "python"))
            import listmmf
            answers = {}
            for text, bound in [{{spellings}}]:
                try:
                    answers[text] = str(48 - len(listmmf.to_pandas(sys.argv[1], start=bound)))
                except listmmf.ListMmfError as error:
                    answers[text] = "refused" if "time zone" in str(error) else str(error)
            print(json.dumps(answers))
            """;
        (int exitCode, string output) = PythonProcess.Run(PandasFactAttribute.Python.Value!, ["-c", script, table]);
        Assert.True(exitCode == 0, output);
        return JsonNode.Parse(output)!.AsObject().ToDictionary(pair => pair.Key, pair => pair.Value!.GetValue<string>());
    }

    private static string Quote(string text) => "'" + text.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "\\'", StringComparison.Ordinal) + "'";
}
