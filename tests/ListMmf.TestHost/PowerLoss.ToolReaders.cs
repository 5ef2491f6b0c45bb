using System.Globalization;
using System.IO;
using System.Text.RegularExpressions;
using ListMmf.Tool.Commands;

namespace ListMmf.TestHost;

/// <summary>The tool as a reader of the power-loss images: <c>listmmf info</c> and <c>listmmf verify</c>, run in this
/// process through the tool's own command line.</summary>
public static partial class PowerLoss
{
    /// <summary>The count <c>listmmf info FILE</c> prints, or "refused" where it exits with an error.</summary>
    private static string ToolInfoCount(string file)
    {
        var output = new StringWriter(CultureInfo.InvariantCulture);
        if (Cli.Run(["info", file], output, TextWriter.Null) != Cli.Success)
        {
            return "refused";
        }

        Match count = Regex.Match(output.ToString(), @"\bcount ([\d,]+), (capacity|file)");
        return count.Success
            ? long.Parse(count.Groups[1].Value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture)
            : $"unreadable output: {output}";
    }

    /// <summary>Whether <c>listmmf verify FILE</c> passes the file.</summary>
    private static bool ToolVerifies(string file) => Cli.Run(["verify", file], TextWriter.Null, TextWriter.Null) == Cli.Success;
}
