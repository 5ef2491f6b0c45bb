using System.Collections.Generic;
using System.Text.Json.Serialization;

namespace ListMmf.Benchmarks.LowerBound;

/// <summary>One implementation's figure for one query set, as <c>quick --json</c> writes it.</summary>
internal sealed record QuickResult(
    [property: JsonPropertyName("name")] string Name,
    [property: JsonPropertyName("querySet")] string QuerySet,
    [property: JsonPropertyName("nsPerSearch")] double NsPerSearch,
    [property: JsonPropertyName("ratioVsMmap")] double RatioVsMmap,
    [property: JsonPropertyName("resultsHash")] string ResultsHash);

[JsonSourceGenerationOptions(WriteIndented = true)]
[JsonSerializable(typeof(List<QuickResult>))]
internal sealed partial class QuickResultJson : JsonSerializerContext;
