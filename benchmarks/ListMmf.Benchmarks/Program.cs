using System;
using BenchmarkDotNet.Running;
using ListMmf.Benchmarks.Data;

namespace ListMmf.Benchmarks;

/// <summary>
/// The benchmark console. <c>sample DIRECTORY</c> regenerates data-samples; anything else goes to
/// BenchmarkDotNet's switcher, so <c>--filter</c>, <c>--job</c> and <c>--list</c> work as usual.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "sample")
        {
            if (args.Length != 2)
            {
                Console.Error.WriteLine("usage: sample DIRECTORY");
                return 2;
            }

            return SampleCommand.Run(args[1]);
        }

        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
