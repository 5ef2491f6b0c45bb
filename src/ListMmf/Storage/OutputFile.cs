using System;
using System.IO;
using System.Linq;

namespace ListMmf.Storage;

/// <summary>
/// The one way data leaves the library as a file of another format (CSV, Parquet, Arrow IPC): whole or not at all,
/// never over the data it is made from, never over a file nobody asked to replace. The output is written to a
/// temporary file of its own name beside the target (<see cref="ExclusiveFile.CreateTemporaryFor"/>); when complete,
/// <see cref="Publish"/> makes it durable, renames it into place and makes the folder durable, as
/// <see cref="DurableFile"/> does for the library's own files. A new export format writes to <see cref="Stream"/>.
/// </summary>
internal sealed class OutputFile : IDisposable
{
    private readonly bool _overwrite;
    private readonly string _temporary;
    private FileStream? _stream;
    private bool _published;

    private OutputFile(string target, bool overwrite, FileStream stream, string temporary)
    {
        Target = target;
        _overwrite = overwrite;
        _stream = stream;
        _temporary = temporary;
    }

    /// <summary>The file written, as a full path.</summary>
    public string Target { get; }

    /// <summary>Where the output is written until it is published.</summary>
    public FileStream Stream => _stream ?? throw new ObjectDisposedException(nameof(OutputFile));

    /// <summary>
    /// Starts the output <paramref name="target"/> of data read from <paramref name="source"/> (a table folder or a
    /// ListMmf file), after refusing a target that is, by file identity rather than by its text, the source, one of
    /// its files, a name in a table's folder or a sidecar name of a file (a link or a relative path counts as what it
    /// names), and a target that exists unless <paramref name="overwrite"/>.
    /// </summary>
    /// <param name="target">The output file.</param>
    /// <param name="source">The table folder or file the output is made from.</param>
    /// <param name="overwrite">Whether an existing output is replaced.</param>
    /// <param name="howToReplace">What the caller's user does to replace an existing output, for the refusal's message.</param>
    /// <exception cref="ListMmfException">The target is refused, or its folder is missing; nothing was written.</exception>
    public static OutputFile Create(string target, string source, bool overwrite, string howToReplace)
    {
        string full = Path.GetFullPath(target);
        string folder = Path.GetDirectoryName(full) ?? throw new ListMmfException(full, "the output cannot be a root folder.");
        ThrowIfSourceFile(full, folder, Path.GetFullPath(source));
        if (!Directory.Exists(folder))
        {
            throw new ListMmfException(full, $"the folder '{folder}' does not exist; nothing was written.");
        }

        if (!overwrite && Exists(full))
        {
            throw new ListMmfException(full, $"the output already exists; nothing was written. {howToReplace}");
        }

        try
        {
            FileStream stream = ExclusiveFile.CreateTemporaryFor(full, bufferSize: 1 << 16, out string temporary);
            return new OutputFile(full, overwrite, stream, temporary);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new ListMmfException(full, $"cannot create a temporary file beside the output ({exception.Message}); " +
                "nothing was written.", exception);
        }
    }

    /// <summary>
    /// Makes the output durable and puts it at <see cref="Target"/>: the temporary file flushed to the device, renamed
    /// into place (over an existing file only when that was asked for), then the folder flushed.
    /// </summary>
    /// <exception cref="ListMmfException">The output could not be made durable or renamed; the target is as it was.</exception>
    public void Publish()
    {
        FileStream stream = Stream;
        try
        {
            stream.Flush(flushToDisk: true);
            _stream = null;
            DurableFile.Publish(stream, _temporary, Target, _overwrite, asNew: !_overwrite);
            _published = true;
        }
        catch (Exception exception) when (exception is (IOException and not ListMmfException) or UnauthorizedAccessException)
        {
            string why = !_overwrite && Exists(Target)
                ? "another file was put at the output's name meanwhile, and replacing it was not asked for"
                : exception.Message;
            throw new ListMmfException(Target, $"could not publish the output: {why}; the output is as it was.", exception);
        }

        DurableFile.FlushDirectoryOf(Target, Target);
    }

    /// <summary>Closes the output; a temporary file that was never published is removed.</summary>
    public void Dispose()
    {
        _stream?.Dispose();
        _stream = null;
        if (!_published)
        {
            DurableFile.TryDelete(_temporary);
        }
    }

    /// <summary>Whether anything is at <paramref name="path"/>: a file, a folder or a link, dangling or not.</summary>
    private static bool Exists(string path) => File.Exists(path) || Directory.Exists(path) || new FileInfo(path).LinkTarget is not null;

    /// <summary>
    /// Refuses an output that would replace the source's data or put a stranger among its files. Whether the target's
    /// folder is a source folder is found by a file of the source folder (a table's manifest) seen through the
    /// target's folder: the same file there means the two folders are one, whatever links or relative parts either
    /// path has.
    /// </summary>
    private static void ThrowIfSourceFile(string target, string folder, string source)
    {
        string? refusal;
        if (Directory.Exists(source))
        {
            string? anchor = Directory.EnumerateFiles(source).FirstOrDefault();
            refusal = FileIdentity.Same(target, source) ? "is the folder being exported"
                : anchor is not null && FileIdentity.Same(Path.Combine(folder, Path.GetFileName(anchor)), anchor) ? "is in the folder being exported"
                : InFolder(target, source) is { } file ? $"is the exported file '{file}'"
                : null;
        }
        else
        {
            string name = Path.GetFileName(source);
            string targetName = Path.GetFileName(target);
            bool sameFolder = FileIdentity.Same(Path.Combine(folder, name), source);
            refusal = FileIdentity.Same(target, source) || (sameFolder && targetName == name) ? "is the file being exported"
                : sameFolder && targetName.StartsWith(name + ".", StringComparison.Ordinal)
                    ? $"is a name of the exported file's own (its sidecars are named '{name}.*')"
                : null;
        }

        if (refusal is not null)
        {
            throw new ListMmfException(target, $"the output {refusal}; writing it would destroy the data it is made from. " +
                $"Write it elsewhere. Nothing was written.");
        }
    }

    /// <summary>The file of <paramref name="folder"/> that <paramref name="target"/> is (through a link), if any.</summary>
    private static string? InFolder(string target, string folder)
    {
        if (!File.Exists(target))
        {
            return null;
        }

        foreach (string file in Directory.EnumerateFiles(folder))
        {
            if (FileIdentity.Same(target, file))
            {
                return file;
            }
        }

        return null;
    }
}
