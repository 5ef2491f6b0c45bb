namespace ListMmf.Storage;

/// <summary>
/// The boot this process runs in (<see cref="StoragePlatform.ReadBootSession"/>), which a version 2 file's writer
/// records beside its live count: a reader of a later boot knows that a power loss may have come between, and trusts
/// only the durable count; a reader of the same boot trusts the live count, which the page cache keeps across a kill.
/// </summary>
internal static class BootSession
{
    private static ulong? s_current;

    /// <summary>
    /// This boot's identity; 0 where the system gives none (Windows), where a file written there then has its live
    /// count trusted, as version 1's is. Set by the power-loss checker and the tests to act as a process of a later boot.
    /// </summary>
    public static ulong Current
    {
        get => s_current ??= StoragePlatform.Current.ReadBootSession();
        internal set => s_current = value;
    }
}
