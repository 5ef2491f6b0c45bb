using System;
using System.IO;

namespace ListMmf.Storage;

/// <summary>
/// A file's first bytes through a read-only mapping that asks for large pages, for code that reads a sealed file's
/// header before its readers map it (<see cref="ListMmfFileInfo"/>: up to a description's megabyte, faulted as far as
/// it is read) or watches a header word change (<see cref="SealedFormWatch"/>): a <c>read</c> would leave the start of
/// the file in small page-cache folios, which every reader then maps in 4 KiB pages. The form of a file is found
/// through <see cref="FileStart"/>, which reads one page and leaves no folio at all.
/// </summary>
internal sealed unsafe class MappedFileStart : IDisposable
{
    /// <summary>The fewest bytes <see cref="Bytes"/> holds: through a sealed file's mark.</summary>
    private const int Shortest = SealedLayout.MagicOffset + 8;

    private readonly FileStream _file;
    private readonly FileMapping? _mapping;
    private readonly int _length;

    /// <summary>Maps the start of the file at <paramref name="path"/>, up to <paramref name="maximumLength"/> bytes.</summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    /// <exception cref="ListMmfException">The path is a directory, or a writer's lock this process holds.</exception>
    public MappedFileStart(string path, int maximumLength)
    {
        _file = ListMmfStorage.OpenExistingStream(path, FileAccess.Read);
        FileLength = _file.Length;
        if (FileLength < Shortest)
        {
            return;
        }

        try
        {
            _mapping = FileMappings.Open(_file, path, writable: false, FileMappings.Resolve(MappingBackend.Default), readsLargePages: true);
            _length = (int)Math.Min(FileLength, maximumLength);
        }
        catch
        {
            StoragePlatform.Current.Close(_file);
            throw;
        }
    }

    /// <summary>The file's length when it was opened.</summary>
    public long FileLength { get; }

    /// <summary>The file's first bytes; none where the file is shorter than a sealed file's mark.</summary>
    public ReadOnlySpan<byte> Bytes => _mapping is null ? [] : new ReadOnlySpan<byte>(_mapping.Pointer, _length);

    public void Dispose()
    {
        _mapping?.Dispose();
        StoragePlatform.Current.Close(_file);
    }
}
