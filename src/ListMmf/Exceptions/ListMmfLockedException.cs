using System;

namespace ListMmf;

/// <summary>Another writer, in this process or another, has the file open for writing: a file has one writer at a time.</summary>
public sealed class ListMmfLockedException : ListMmfException
{
    /// <summary>Creates the exception for <paramref name="filePath"/>.</summary>
    public ListMmfLockedException(string filePath, string problem)
        : base(filePath, problem)
    {
    }

    /// <summary>Creates the exception for <paramref name="filePath"/> with the failure that reported the other writer.</summary>
    public ListMmfLockedException(string filePath, string problem, Exception innerException)
        : base(filePath, problem, innerException)
    {
    }
}
