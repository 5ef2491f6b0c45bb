using System;
using System.Buffers.Text;
using System.Globalization;
using System.Text;

namespace ListMmf.Tool.Csv;

/// <summary>
/// How a CSV time column is written: <c>unix</c> (seconds), <c>unixms</c>, <c>unixns</c>, <c>iso</c> (ISO 8601:
/// <c>yyyy-MM-ddTHH:mm:ss</c>, a space for the T, up to 7 fraction digits, then a zone or none: <c>Z</c>,
/// <c>+hh:mm</c>, <c>+hhmm</c>, <c>+hh</c>), or a .NET custom format such as <c>yyyyMMdd HHmmss</c> (an offset in
/// it, <c>zzz</c>, converts to UTC). Times are read to DateTime ticks and never rounded: a time finer than the ticks
/// (a nanosecond stamp that is not a multiple of 100 ns) is refused. A zone is never dropped: zoned times are
/// converted to UTC and make or require a table recorded as UTC (<see cref="Utc"/>), and a file's ISO times are all
/// zoned or all without a zone, as its first row says.
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

    private TimeFormat(string name, string? custom, long unitTicks = 0, long perTick = 1, bool? utc = null)
    {
        Name = name;
        _custom = custom;
        Utc = utc;
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

    /// <summary>ISO 8601 times without a zone.</summary>
    public static TimeFormat Iso { get; } = new("iso", null, utc: false);

    /// <summary>ISO 8601 times with a zone (<c>Z</c> or an offset), read as UTC.</summary>
    public static TimeFormat IsoUtc { get; } = new("iso", null, utc: true);

    public string Name { get; }

    /// <summary>
    /// Whether the times are instants in UTC (true: a zone was written), times without a zone (false), or Unix
    /// times (null), which count from 1970 UTC and fit a table either way.
    /// </summary>
    public bool? Utc { get; }

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
            StringComparison.OrdinalIgnoreCase) => new TimeFormat(text, text, utc: text.Contains('z', StringComparison.Ordinal)
                || text.Contains('K', StringComparison.Ordinal)),
        _ => throw new UsageException($"time format '{text}': give unix, unixms, unixns, iso, or a .NET custom format " +
            $"with the year, day and hour (such as 'yyyyMMdd HHmmss')."),
    };

    /// <summary>
    /// With no format given: a column of integers is Unix seconds, anything else ISO 8601, with a zone or without as
    /// the first row's time has it.
    /// </summary>
    public static TimeFormat Detect(ReadOnlySpan<byte> firstValue)
    {
        ReadOnlySpan<byte> digits = firstValue.Length > 0 && firstValue[0] == '-' ? firstValue[1..] : firstValue;
        return !digits.IsEmpty && digits.IndexOfAnyExceptInRange((byte)'0', (byte)'9') < 0 ? Unix : Iso.SettledBy(firstValue);
    }

    /// <summary>The format of a file whose first time is <paramref name="firstValue"/>: the one given, settled by it, or detected from it.</summary>
    public static TimeFormat For(TimeFormat? given, ReadOnlySpan<byte> firstValue) => given?.SettledBy(firstValue) ?? Detect(firstValue);

    /// <summary>The format the file's first time settles: ISO with a zone or without, as that time has it; others as they are.</summary>
    public TimeFormat SettledBy(ReadOnlySpan<byte> firstValue) =>
        this != Iso && this != IsoUtc ? this : Zone(firstValue, out _, out _) ? IsoUtc : Iso;

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

        if (this == Iso || this == IsoUtc)
        {
            // Only the shapes the fast parser knows: nothing is guessed (a time without a date) or rounded.
            bool parsed = TryParseIso(text, this == IsoUtc, out ticks, out problem);
            problem ??= parsed ? null : "is not an ISO 8601 time (yyyy-MM-ddTHH:mm:ss, a space for the T, up to 7 " +
                "fraction digits, then Z, an offset such as +01:00, or no zone)";
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
    /// Whether <paramref name="text"/> ends in a zone after its time of day: <c>Z</c>, or an offset <c>+hh:mm</c>,
    /// <c>+hhmm</c> or <c>+hh</c> (or with '-'); <paramref name="length"/> is what comes before it and
    /// <paramref name="offsetTicks"/> the offset (0 for Z).
    /// </summary>
    private static bool Zone(ReadOnlySpan<byte> text, out int length, out long offsetTicks)
    {
        const int TimeOfDayEnd = 19;
        length = text.Length;
        offsetTicks = 0;
        if (text.Length > TimeOfDayEnd && (text[^1] == 'Z' || text[^1] == 'z'))
        {
            length = text.Length - 1;
            return true;
        }

        foreach (int width in (ReadOnlySpan<int>)[6, 5, 3])
        {
            int sign = text.Length - width;
            if (sign < TimeOfDayEnd || (text[sign] != '+' && text[sign] != '-'))
            {
                continue;
            }

            ReadOnlySpan<byte> offset = text[(sign + 1)..];
            bool colon = width == 6;
            if ((colon && offset[2] != ':') || !Digits(offset[..2], out int hours)
                || !Digits(width == 3 ? [] : offset[(colon ? 3 : 2)..], out int minutes) || hours > 23 || minutes > 59)
            {
                return false;
            }

            length = sign;
            offsetTicks = (text[sign] == '-' ? -1 : 1) * ((hours * TimeSpan.TicksPerHour) + (minutes * TimeSpan.TicksPerMinute));
            return true;
        }

        return false;
    }

    /// <summary>
    /// The common shape fast: <c>yyyy-MM-dd</c>, then <c>T</c> or a space and <c>HH:mm:ss</c> with up to seven
    /// fraction digits, then a zone when <paramref name="zoned"/> (converted to UTC) and none otherwise. False with no
    /// problem for any other shape.
    /// </summary>
    private static bool TryParseIso(ReadOnlySpan<byte> text, bool zoned, out long ticks, out string? problem)
    {
        ticks = 0;
        problem = null;
        if (Zone(text, out int length, out long offsetTicks) != zoned)
        {
            problem = zoned
                ? "has no zone, but the first row's time has one (Z or an offset): a file's times all have a zone or none do"
                : "has a zone (Z or an offset), but the first row's time has none: a file's times all have a zone or none do";
            return false;
        }

        text = text[..length];

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

        ticks = new DateTime(year, month, day, hour, minute, second).Ticks + fraction - offsetTicks;
        if ((ulong)ticks > (ulong)DateTime.MaxValue.Ticks)
        {
            problem = "is outside the range of DateTime once converted to UTC";
            return false;
        }

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
