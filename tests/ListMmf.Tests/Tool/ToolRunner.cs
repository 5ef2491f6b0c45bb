using System.IO;
using ListMmf.Tool.Commands;

namespace ListMmf.Tests.Tool;

/// <summary>Runs the listmmf command line in this process, capturing what it writes.</summary>
public static class ToolRunner
{
    public static ToolResult Run(params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        int exitCode = Cli.Run(args, output, error);
        return new ToolResult(exitCode, output.ToString(), error.ToString());
    }
}

public sealed record ToolResult(int ExitCode, string Output, string Error)
{
    /// <summary>Errors are one line on standard error.</summary>
    public bool IsOneErrorLine => Error.TrimEnd('\n', '\r').Split('\n').Length == 1 && Error.StartsWith("listmmf: ", System.StringComparison.Ordinal);
}
