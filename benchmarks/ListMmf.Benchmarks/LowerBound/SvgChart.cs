using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>A horizontal bar chart of ns per search, log scale, one pair of bars (fixed, fresh) per implementation.</summary>
internal static class SvgChart
{
    private const int LabelWidth = 190;
    private const int PlotWidth = 560;
    private const int BarHeight = 14;
    private const int RowHeight = 40;
    private const int Top = 50;

    public static string Draw(IReadOnlyList<QuickResult> results, string title)
    {
        string[] names = results.Select(r => r.Name).Distinct().ToArray();
        double max = results.Max(r => r.NsPerSearch);
        double decades = Math.Ceiling(Math.Log10(Math.Max(max, 10)));
        int height = Top + (names.Length * RowHeight) + 40;
        var svg = new StringBuilder();
        Append(svg, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{LabelWidth + PlotWidth + 180}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">");
        svg.AppendLine("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
        Append(svg, $"<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{Escape(title)}</text>");
        Append(svg, $"<rect x=\"{LabelWidth}\" y=\"28\" width=\"10\" height=\"10\" fill=\"#2b6cb0\"/><text x=\"{LabelWidth + 14}\" y=\"37\">fixed targets (caches warm)</text>");
        Append(svg, $"<rect x=\"{LabelWidth + 200}\" y=\"28\" width=\"10\" height=\"10\" fill=\"#dd6b20\"/><text x=\"{LabelWidth + 214}\" y=\"37\">fresh targets (caches cold)</text>");
        for (int decade = 0; decade <= decades; decade++)
        {
            double x = LabelWidth + (PlotWidth * decade / decades);
            Append(svg, $"<line x1=\"{x:F1}\" y1=\"{Top - 6}\" x2=\"{x:F1}\" y2=\"{height - 30}\" stroke=\"#ddd\"/>");
            Append(svg, $"<text x=\"{x:F1}\" y=\"{height - 14}\" text-anchor=\"middle\">{Math.Pow(10, decade):N0} ns</text>");
        }

        for (int i = 0; i < names.Length; i++)
        {
            int y = Top + (i * RowHeight);
            Append(svg, $"<text x=\"{LabelWidth - 8}\" y=\"{y + BarHeight + 4}\" text-anchor=\"end\">{Escape(names[i])}</text>");
            Bar(svg, results.Single(r => r.Name == names[i] && r.QuerySet == "fixed"), y, "#2b6cb0", decades);
            Bar(svg, results.Single(r => r.Name == names[i] && r.QuerySet == "fresh"), y + BarHeight + 2, "#dd6b20", decades);
        }

        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    private static void Bar(StringBuilder svg, QuickResult result, int y, string color, double decades)
    {
        double width = Math.Max(1, PlotWidth * Math.Log10(Math.Max(result.NsPerSearch, 1)) / decades);
        Append(svg, $"<rect x=\"{LabelWidth}\" y=\"{y}\" width=\"{width:F1}\" height=\"{BarHeight}\" fill=\"{color}\"/>");
        Append(svg, $"<text x=\"{LabelWidth + width + 4:F1}\" y=\"{y + BarHeight - 3}\">{result.NsPerSearch:N1} ns ({result.RatioVsMmap:F2}x)</text>");
    }

    private static void Append(StringBuilder svg, FormattableString line) => svg.AppendLine(line.ToString(CultureInfo.InvariantCulture));

    private static string Escape(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal);
}
