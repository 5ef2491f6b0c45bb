using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace ListMmf.Benchmarks;

/// <summary>The options of one command: <c>--name value</c> pairs, checked against what the command accepts.</summary>
internal sealed class CommandLine
{
    private readonly Dictionary<string, string> _options = new(StringComparer.Ordinal);

    private CommandLine(List<string> passThrough) => PassThrough = passThrough;

    /// <summary>Arguments the command does not interpret itself (handed on to BenchmarkDotNet where allowed).</summary>
    public List<string> PassThrough { get; }

    /// <summary>Parses <paramref name="args"/>; unknown options are an error unless <paramref name="allowPassThrough"/>.</summary>
    /// <exception cref="UsageException">An unknown option or a missing value.</exception>
    public static CommandLine Parse(string command, ReadOnlySpan<string> args, IReadOnlyCollection<string> known, bool allowPassThrough = false)
    {
        var line = new CommandLine([]);
        for (int i = 0; i < args.Length; i++)
        {
            string arg = args[i];
            if (known.Contains(arg))
            {
                if (i + 1 >= args.Length)
                {
                    throw new UsageException($"{command}: {arg} needs a value");
                }

                line._options[arg] = args[++i];
            }
            else if (allowPassThrough)
            {
                line.PassThrough.Add(arg);
            }
            else
            {
                throw new UsageException($"{command}: unknown option '{arg}' (accepted: {string.Join(", ", known)})");
            }
        }

        return line;
    }

    public string? Text(string option) => _options.GetValueOrDefault(option);

    public long Count(string option, long fallback, long minimum)
    {
        if (!_options.TryGetValue(option, out string? text))
        {
            return fallback;
        }

        if (!long.TryParse(text.Replace("_", "", StringComparison.Ordinal), NumberStyles.AllowThousands, CultureInfo.InvariantCulture, out long value) || value < minimum)
        {
            throw new UsageException($"{option} must be a whole number of at least {minimum:N0}, not '{text}'");
        }

        return value;
    }
}

/// <summary>A wrong command line, reported in one line.</summary>
internal sealed class UsageException(string message) : Exception(message);
