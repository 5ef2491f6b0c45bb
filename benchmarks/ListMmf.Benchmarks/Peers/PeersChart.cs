using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net;
using System.Text;

namespace ListMmf.Benchmarks.Peers;

/// <summary>The peers chart: for each operation, how many times ListMmf's figure each other store's is, on a log scale (1x at the left edge).</summary>
internal static class PeersChart
{
    private const int Left = 300;
    private const int Width = 560;
    private const int Bar = 14;

    public static string Draw(IReadOnlyList<PeerResult> results, IReadOnlyList<string> operations, IReadOnlyList<string> stores, string title)
    {
        string[] peers = stores.Where(store => store != "ListMmf").ToArray();
        var rows = new List<(string Operation, string Store, double Ratio)>();
        foreach (string operation in operations)
        {
            double? ours = results.FirstOrDefault(r => r.Operation == operation && r.Store == "ListMmf")?.Value;
            foreach (string peer in peers)
            {
                if (ours is > 0 && results.FirstOrDefault(r => r.Operation == operation && r.Store == peer)?.Value is { } theirs)
                {
                    rows.Add((operation, peer, theirs / ours.Value));
                }
            }
        }

        double decades = Math.Max(1, Math.Ceiling(Math.Log10(rows.Select(r => r.Ratio).DefaultIfEmpty(10).Max())));
        string[] colours = ["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756"];
        int height = 60 + (rows.Count * (Bar + 4)) + (operations.Count * 10);
        var svg = new StringBuilder();
        svg.Append(CultureInfo.InvariantCulture, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Left + Width + 40}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\">\n");
        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"10\" y=\"18\" font-size=\"12\">{WebUtility.HtmlEncode(title)}</text>\n");
        svg.Append(CultureInfo.InvariantCulture, $"<text x=\"10\" y=\"34\">times ListMmf's figure (log scale; right is worse for the peer, left of 1x better)</text>\n");
        for (int d = 0; d <= decades; d++)
        {
            double x = Left + (Width * d / decades);
            svg.Append(CultureInfo.InvariantCulture, $"<line x1=\"{x:F0}\" y1=\"42\" x2=\"{x:F0}\" y2=\"{height - 8}\" stroke=\"#ddd\"/><text x=\"{x:F0}\" y=\"{height - 2}\" text-anchor=\"middle\">{Math.Pow(10, d):N0}x</text>\n");
        }

        int y = 48;
        string? last = null;
        foreach ((string operation, string store, double ratio) in rows)
        {
            if (operation != last)
            {
                y += last is null ? 0 : 10;
                svg.Append(CultureInfo.InvariantCulture, $"<text x=\"10\" y=\"{y + Bar - 3}\">{WebUtility.HtmlEncode(operation)}</text>\n");
                last = operation;
            }

            double length = Math.Max(1, Width * Math.Max(0, Math.Log10(ratio)) / decades);
            string colour = colours[Array.IndexOf(peers, store) % colours.Length];
            svg.Append(CultureInfo.InvariantCulture, $"<rect x=\"{Left}\" y=\"{y}\" width=\"{length:F0}\" height=\"{Bar}\" fill=\"{colour}\"/><text x=\"{Left + length + 4:F0}\" y=\"{y + Bar - 3}\">{WebUtility.HtmlEncode(store)} {ratio:N1}x</text>\n");
            y += Bar + 4;
        }

        svg.Append("</svg>\n");
        return svg.ToString();
    }
}
