using System;
using ListMmf.Tool.Commands;

namespace ListMmf.Tool;

/// <summary>The <c>listmmf</c> command: see <see cref="Cli"/>.</summary>
public static class Program
{
    public static int Main(string[] args) => Cli.Run(args, Console.Out, Console.Error);
}
