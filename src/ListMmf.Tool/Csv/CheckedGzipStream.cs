using System;
using System.Buffers.Binary;
using System.IO;
using System.IO.Compression;

namespace ListMmf.Tool.Csv;

/// <summary>
/// Reads a gzip file and checks, when the data ends, that it ended where the file says: <see cref="GZipStream"/>
/// reports a file cut short as a normal end, so the size in the gzip trailer (the last four bytes: the data's length
/// modulo 2^32) is compared with what was read. A gzip made of several members is checked against its last member's
/// size only, so such a file is refused; recompress it as one member.
/// </summary>
internal sealed class CheckedGzipStream : Stream
{
    private readonly FileStream _file;
    private readonly GZipStream _gzip;
    private long _read;

    public CheckedGzipStream(FileStream file)
    {
        _file = file;
        _gzip = new GZipStream(file, CompressionMode.Decompress, leaveOpen: true);
    }

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => _read;
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        int read = _gzip.Read(buffer);
        _read += read;
        if (read == 0 && buffer.Length > 0)
        {
            CheckTrailer();
        }

        return read;
    }

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _gzip.Dispose();
        }

        base.Dispose(disposing);
    }

    private void CheckTrailer()
    {
        Span<byte> size = stackalloc byte[4];
        long length = _file.Length;
        if (length < 18 || RandomAccess.Read(
            _file.SafeFileHandle,
            size,
            length - 4) != 4 || BinaryPrimitives.ReadUInt32LittleEndian(size) != (uint)_read)
        {
            throw new InvalidDataException($"the data ended after {_read:N0} bytes, but the gzip trailer does not say " +
                $"that size: the file is cut short or damaged");
        }
    }
}
