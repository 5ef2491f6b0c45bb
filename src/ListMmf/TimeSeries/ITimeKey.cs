using System;

namespace ListMmf;

/// <summary>
/// How a kind of time file keys its times: the one place each conversion between a DateTime and a stored key lives,
/// for the appendable series (<see cref="TimeSeriesMmf{TKey}"/>) and the sealed searches alike.
/// </summary>
/// <typeparam name="TKey">The stored key.</typeparam>
internal interface ITimeKey<TKey>
    where TKey : unmanaged
{
    /// <summary>The data-type code of files of these keys.</summary>
    static abstract DataType DataType { get; }

    /// <summary>The smallest key of a time at or after <paramref name="time"/>; false where no key is (past the key's range).</summary>
    static abstract bool TryAtOrAfter(DateTime time, out TKey key);

    /// <summary>The smallest key of a time after <paramref name="time"/>; false where no key is.</summary>
    static abstract bool TryAfter(DateTime time, out TKey key);

    /// <summary>The key that stands for <paramref name="time"/> exactly; false where the key type cannot hold it.</summary>
    static abstract bool TryExact(DateTime time, out TKey key);

    /// <summary>The time <paramref name="key"/> stands for; false where it stands for none.</summary>
    static abstract bool TryToDateTime(TKey key, out DateTime time);
}
