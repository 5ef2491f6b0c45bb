using System;
using System.Buffers.Text;
using System.Globalization;
using System.Text;

namespace ListMmf.Tool.Csv;

/// <summary>
/// How a CSV time column is written: <c>unix</c> (seconds), <c>unixms</c>, <c>unixns</c>, <c>iso</c> (ISO 8601 without
/// an offset: <c>yyyy-MM-ddTHH:mm:ss</c>, a space for the T, up to 7 fraction digits, an optional Z), or a .NET custom
/// format such as <c>yyyyMMdd HHmmss</c> (an offset in it, <c>zzz</c>, converts to UTC). Times are read to DateTime ticks and never rounded: a time
/// finer than the ticks (a nanosecond stamp that is not a multiple of 100 ns) is refused.
/// </summary>
internal sealed class TimeFormat
{
    private static readonly long EpochTicks = DateTime.UnixEpoch.Ticks;

    private readonly string? _custom;

    // A Unix time in units of 1/perTick ticks: its units past the epoch, and the units DateTime holds each way of it.
    // Kept per format so that a row's conversion divides only where the unit is finer than a tick (nanoseconds).
    private readonly long _unitTicks;
    private readonly long _perTick;
    private readonly long _minUnits;
    private readonly long _maxUnits;

    private TimeFormat(string name, string? custom, long unitTicks = 0, long perTick = 1)
    {
        Name = name;
        _custom = custom;
        _unitTicks = unitTicks;
        _perTick = perTick;
        if (unitTicks != 0)
        {
            _minUnits = -EpochTicks / unitTicks;
            _maxUnits = (DateTime.MaxValue.Ticks - EpochTicks) / unitTicks;
        }
    }

    public static TimeFormat Unix { get; } = new("unix", null, TimeSpan.TicksPerSecond);

    public static TimeFormat UnixMilliseconds { get; } = new("unixms", null, TimeSpan.TicksPerMillisecond);

    public static TimeFormat UnixNanoseconds { get; } = new("unixns", null, 1, 100);

    public static TimeFormat Iso { get; } = new("iso", null);

    public string Name { get; }

    /// <summary>Whether the format can hold a fraction of a second (so a new table gets a ticks time column).</summary>
    public bool HasSubSeconds => this != Unix;

    /// <exception cref="UsageException">The text is neither a format name nor a .NET custom format with a year, a day and an hour.</exception>
    public static TimeFormat Parse(string text) => text switch
    {
        "unix" => Unix,
        "unixms" => UnixMilliseconds,
        "unixns" => UnixNanoseconds,
        "iso" => Iso,
        _ when text.Contains('y', StringComparison.Ordinal) && text.Contains('d', StringComparison.Ordinal) && text.Contains(
            'H',
            StringComparison.OrdinalIgnoreCase) => new TimeFormat(text, text),
        _ => throw new UsageException($"time format '{text}': give unix, unixms, unixns, iso, or a .NET custom format " +
            $"with the year, day and hour (such as 'yyyyMMdd HHmmss')."),
    };

    /// <summary>With no format given: a column of integers is Unix seconds, anything else ISO 8601 (decided by the first row).</summary>
    public static TimeFormat Detect(ReadOnlySpan<byte> firstValue)
    {
        ReadOnlySpan<byte> digits = firstValue.Length > 0 && firstValue[0] == '-' ? firstValue[1..] : firstValue;
        return !digits.IsEmpty && digits.IndexOfAnyExceptInRange((byte)'0', (byte)'9') < 0 ? Unix : Iso;
    }

    /// <summary>The DateTime ticks <paramref name="text"/> stands for; false with the reason when it does not parse.</summary>
    public bool TryParse(ReadOnlySpan<byte> text, out long ticks, out string? problem)
    {
        problem = null;
        if (_unitTicks != 0)
        {
            if (!Utf8Parser.TryParse(text, out long value, out int consumed) || consumed != text.Length)
            {
                ticks = 0;
                problem = $"is not an integer ({Name})";
                return false;
            }

            return FromUnix(value, out ticks, out problem);
        }

        if (this == Iso)
        {
            // Only the shapes the fast parser knows: nothing is guessed (a time without a date) or rounded.
            bool parsed = TryParseIso(text, out ticks, out problem);
            problem ??= parsed ? null : "is not an ISO 8601 time (yyyy-MM-ddTHH:mm:ss, a space for the T, up to 7 fraction digits, Z)";
            return parsed;
        }

        return TryParseCustom(text, out ticks, out problem);
    }

    private bool FromUnix(long value, out long ticks, out string? problem)
    {
        ticks = 0;
        long units = value;
        if (_perTick != 1)
        {
            (units, long finer) = Math.DivRem(value, _perTick);
            if (finer != 0)
            {
                problem = "has a part finer than 100 ns, which DateTime ticks cannot hold; it is not rounded";
                return false;
            }
        }

        if (units > _maxUnits || units < _minUnits)
        {
            string unit = this == Unix ? "seconds" : this == UnixMilliseconds ? "milliseconds" : "nanoseconds";
            problem = $"is outside the range of DateTime as Unix {unit}" +
                (this == UnixNanoseconds ? "" : "; if the times count finer units, name them: --time COLUMN:unixms or COLUMN:unixns");
            return false;
        }

        ticks = EpochTicks + (units * _unitTicks);
        problem = null;
        return true;
    }

    /// <summary>
    /// The common shape fast: <c>yyyy-MM-dd</c>, then <c>T</c> or a space and <c>HH:mm:ss</c> with up to seven
    /// fraction digits and an optional <c>Z</c>. False with no problem for any other shape (the slow path tries).
    /// </summary>
    private static bool TryParseIso(ReadOnlySpan<byte> text, out long ticks, out string? problem)
    {
        ticks = 0;
        problem = null;
        if (text.Length > 0 && text[^1] == 'Z')
        {
            text = text[..^1];
        }

        if (text.Length < 10 || text[4] != '-' || text[7] != '-'
            || !Digits(text[..4], out int year) || !Digits(text[5..7], out int month) || !Digits(text[8..10], out int day))
        {
            return false;
        }

        int hour = 0, minute = 0, second = 0;
        long fraction = 0;
        if (text.Length > 10)
        {
            if (text.Length < 19 || (text[10] != 'T' && text[10] != ' ') || text[13] != ':' || text[16] != ':'
                || !Digits(text[11..13], out hour) || !Digits(text[14..16], out minute) || !Digits(text[17..19], out second))
            {
                return false;
            }

            if (text.Length > 19)
            {
                ReadOnlySpan<byte> digits = text[20..];
                if (text[19] != '.' || digits.IsEmpty || digits.IndexOfAnyExceptInRange((byte)'0', (byte)'9') >= 0)
                {
                    return false;
                }

                if (digits.Length > 7 && digits[7..].IndexOfAnyExcept((byte)'0') >= 0)
                {
                    problem = "has a part finer than 100 ns, which DateTime ticks cannot hold; it is not rounded";
                    return false;
                }

                for (int i = 0; i < 7; i++)
                {
                    fraction = (fraction * 10) + (i < digits.Length ? digits[i] - '0' : 0);
                }
            }
        }

        if (year < 1 || month is < 1 or > 12 || day < 1 || day > DateTime.DaysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
        {
            problem = "is not a valid date and time";
            return false;
        }

        ticks = new DateTime(year, month, day, hour, minute, second).Ticks + fraction;
        return true;
    }

    private bool TryParseCustom(ReadOnlySpan<byte> text, out long ticks, out string? problem)
    {
        Span<char> chars = stackalloc char[128];
        ticks = 0;
        problem = $"is not a time in the format '{Name}'";
        if (text.Length > chars.Length || !Encoding.UTF8.TryGetChars(text, chars, out int length))
        {
            return false;
        }

        const DateTimeStyles Styles = DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal | DateTimeStyles.NoCurrentDateDefault;
        if (!DateTime.TryParseExact(chars[..length], _custom, CultureInfo.InvariantCulture, Styles, out DateTime time))
        {
            return false;
        }

        ticks = time.Ticks;
        problem = null;
        return true;
    }

    private static bool Digits(ReadOnlySpan<byte> text, out int value)
    {
        value = 0;
        foreach (byte c in text)
        {
            if ((uint)(c - '0') > 9)
            {
                return false;
            }

            value = (value * 10) + (c - '0');
        }

        return true;
    }
}
