using System;
using System.IO;

namespace ListMmf.Tool.Csv;

/// <summary>
/// Reads lines of UTF-8 bytes from a stream through one large buffer, with no allocation per line. A line ends at
/// <c>\n</c>, <c>\r\n</c> or a lone <c>\r</c> (files with mixed endings read the same); the last line needs no end.
/// A line is valid until the next call.
/// </summary>
internal sealed class CsvLineReader
{
    private readonly Stream _stream;
    private byte[] _buffer = new byte[1 << 20];
    private int _start;
    private int _end;
    private bool _endOfStream;

    public CsvLineReader(Stream stream) => _stream = stream;

    /// <summary>The 1-based number of the line last returned.</summary>
    public long LineNumber { get; private set; }

    public bool TryReadLine(out ReadOnlySpan<byte> line)
    {
        while (true)
        {
            ReadOnlySpan<byte> pending = _buffer.AsSpan(_start, _end - _start);
            int end = pending.IndexOfAny((byte)'\n', (byte)'\r');
            if (end >= 0 && !(pending[end] == '\r' && end + 1 == pending.Length && !_endOfStream))
            {
                line = pending[..end];
                _start += end + (pending[end] == '\r' && end + 1 < pending.Length && pending[end + 1] == '\n' ? 2 : 1);
                LineNumber++;
                return true;
            }

            if (_endOfStream)
            {
                line = pending;
                _start = _end;
                LineNumber += pending.IsEmpty ? 0 : 1;
                return !pending.IsEmpty;
            }

            Fill();
        }
    }

    /// <summary>Keeps the unfinished line at the start of the buffer (growing it for a line longer than the buffer) and reads more after it.</summary>
    private void Fill()
    {
        if (_start > 0)
        {
            Buffer.BlockCopy(_buffer, _start, _buffer, 0, _end - _start);
            _end -= _start;
            _start = 0;
        }

        if (_end == _buffer.Length)
        {
            Array.Resize(ref _buffer, _buffer.Length * 2);
        }

        int read = _stream.Read(_buffer, _end, _buffer.Length - _end);
        _endOfStream = read == 0;
        _end += read;
    }
}
