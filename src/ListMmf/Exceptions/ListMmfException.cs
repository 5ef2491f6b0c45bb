using System;
using System.IO;

namespace ListMmf;

/// <summary>
/// The base of the errors this library reports about a specific file. It is an <see cref="IOException"/>, so code
/// that already handles I/O failures handles these too; <see cref="FilePath"/> names the file.
/// </summary>
public class ListMmfException : IOException
{
    /// <summary>Creates the exception for <paramref name="filePath"/>; the message starts with the path.</summary>
    public ListMmfException(string filePath, string problem)
        : base($"'{filePath}': {problem}")
    {
        FilePath = filePath;
        Problem = problem;
    }

    /// <summary>Creates the exception for <paramref name="filePath"/> with the failure that caused it.</summary>
    public ListMmfException(string filePath, string problem, Exception innerException)
        : base($"'{filePath}': {problem}", innerException)
    {
        FilePath = filePath;
        Problem = problem;
    }

    /// <summary>The file the problem is about.</summary>
    public string FilePath { get; }

    /// <summary>The message without the path, for wrapping in a message that names the file already.</summary>
    internal string Problem { get; }
}
