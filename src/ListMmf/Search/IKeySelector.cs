namespace ListMmf;

/// <summary>
/// Picks the sort key out of a row, for <see cref="KeyedListMmf{TRow, TKey, TSelector}"/>. Implement it on an empty
/// struct; the member is static, so each search is compiled for the selector and the key read inlines: no delegate,
/// no virtual call.
/// </summary>
/// <example>
/// <code>
/// struct ByTimestamp : IKeySelector&lt;Quote, long&gt;
/// {
///     public static long KeyOf(in Quote quote) =&gt; quote.Timestamp;
/// }
/// </code>
/// </example>
/// <typeparam name="TRow">The stored row.</typeparam>
/// <typeparam name="TKey">The key the rows are sorted by.</typeparam>
public interface IKeySelector<TRow, out TKey>
{
    /// <summary>The key of <paramref name="row"/>.</summary>
    static abstract TKey KeyOf(in TRow row);
}
