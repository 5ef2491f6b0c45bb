using System;

namespace ListMmf.Storage;

/// <summary>
/// When a reader whose file is marked replaced looks at the path: at once the first time, with
/// <see cref="FileReplacement.OpenAttempts"/> opens so that a live writer has the moment between its mark and its
/// rename; then, while the path still holds the same file (its writer died before renaming), once every
/// 10 ms, so that such a file costs no system call per read. A read past the items the reader has looks at once
/// (<see cref="ShouldLook"/>): another column of its table may already have shown the row in the new file.
/// </summary>
internal struct ReplacementCheck
{
    private const int RecheckMilliseconds = 10;

    /// <summary>
    /// This thread's wait between looks in milliseconds, where a test holds the next look off for its length; 0 is
    /// the default wait.
    /// </summary>
    [ThreadStatic]
    internal static int t_recheckMilliseconds;

    /// <summary>The <see cref="Environment.TickCount64"/> of the next look; 0 before the first.</summary>
    private long _due;

    /// <summary>
    /// Whether to look at the path now: when the wait is over, or at once where <paramref name="evenIfPostponed"/> (a
    /// read past the items this file has); never once the reader will not move (<see cref="Stop"/>).
    /// </summary>
    public readonly bool ShouldLook(bool evenIfPostponed) =>
        _due != long.MaxValue && (evenIfPostponed || Environment.TickCount64 >= _due);

    /// <summary>How many opens this look gives the writer.</summary>
    public readonly int Attempts => _due == 0 ? FileReplacement.OpenAttempts : 1;

    /// <summary>The path still holds this file: look again later.</summary>
    public void Postpone() => _due = Environment.TickCount64 + (t_recheckMilliseconds > 0 ? t_recheckMilliseconds : RecheckMilliseconds);

    /// <summary>The reader will never move (it cannot read the file now at the path).</summary>
    public void Stop() => _due = long.MaxValue;

    /// <summary>The reader moved: the next mark is a new replacement.</summary>
    public void Reset() => _due = 0;
}
