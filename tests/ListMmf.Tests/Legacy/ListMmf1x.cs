using System;
using System.Diagnostics;
using System.IO;
using System.Threading.Tasks;
using Xunit;

namespace ListMmf.Tests.Legacy;

/// <summary>
/// ListMmf 1.3.0 itself, in a process of its own (its assembly is named ListMmf too): tests/Legacy1x built against the
/// 1.x source beside the repository (../shared/listmmf-1.x, unchanged), both copied to a scratch folder first so that
/// the build writes nothing in either. Built once per test run.
/// </summary>
public static class ListMmf1x
{
    private static readonly Lazy<string> s_probe = new(Build);

    /// <summary>The 1.x source project; null where it is not beside the repository.</summary>
    public static string? Source { get; } = FindSource();

    /// <summary>Runs the probe: "read PATH", "write PATH N" or "hold PATH" (see tests/Legacy1x/Program.cs).</summary>
    public static ToolRun Run(params string[] args)
    {
        using Process process = Start(args);
        process.StandardInput.Close();
        Task<string> error = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return new ToolRun(process.ExitCode, output.Trim(), error.Result.Trim());
    }

    /// <summary>Starts the probe with its standard streams redirected; the caller waits for it.</summary>
    public static Process Start(params string[] args)
    {
        var start = new ProcessStartInfo(Dotnet)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(s_probe.Value);
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        return Process.Start(start)!;
    }

    private static string Dotnet => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host : "dotnet";

    private static string Build()
    {
        string source = Source ?? throw new InvalidOperationException("ListMmf 1.x's source is not beside the repository");
        // The probe is built from a copy too: the net8.0 and net10.0 test runs build it at once, and neither may write
        // into the clone.
        string scratch = Path.Combine(Path.GetTempPath(), "listmmf-1x-" + Guid.NewGuid().ToString("N"));
        CopyFolder(Path.GetDirectoryName(source)!, Path.Combine(scratch, "src"));
        CopyFolder(Path.Combine(RepositoryRoot()!, "tests", "Legacy1x"), Path.Combine(scratch, "probe"));
        AppDomain.CurrentDomain.ProcessExit += (_, _) => Directory.Delete(scratch, recursive: true);
        string output = Path.Combine(scratch, "bin");
        var start = new ProcessStartInfo(Dotnet)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };

        // No build server or node outlives the build: one that did would hold its output open, and the read below
        // would wait for it.
        start.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        start.Environment["DOTNET_CLI_USE_MSBUILD_SERVER"] = "false";
        foreach (string arg in (string[])[
            "build", "-nodeReuse:false", "-p:UseSharedCompilation=false", Path.Combine(scratch, "probe", "Legacy1x.csproj"),
            "-c", "Release", "-p:TargetFramework=net10.0", $"-p:Legacy1xSource={Path.Combine(scratch, "src", Path.GetFileName(source))}",
            "-o", output])
        {
            start.ArgumentList.Add(arg);
        }

        using Process build = Process.Start(start)!;
        Task<string> error = build.StandardError.ReadToEndAsync();
        string log = build.StandardOutput.ReadToEnd() + error.Result;
        build.WaitForExit();
        return build.ExitCode == 0
            ? Path.Combine(output, "Legacy1x.dll")
            : throw new InvalidOperationException($"building ListMmf 1.x's probe failed:\n{log}");
    }

    private static void CopyFolder(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (string file in Directory.GetFiles(from))
        {
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        }

        foreach (string folder in Directory.GetDirectories(from))
        {
            string name = Path.GetFileName(folder);
            if (name is not ("bin" or "obj"))
            {
                CopyFolder(folder, Path.Combine(to, name));
            }
        }
    }

    private static string? FindSource()
    {
        string? root = RepositoryRoot();
        string? project = root is null ? null : Path.GetFullPath(Path.Combine(root, "..", "shared", "listmmf-1.x", "src", "ListMmf", "ListMmf.csproj"));
        return project is not null && File.Exists(project) ? project : null;
    }

    private static string? RepositoryRoot()
    {
        for (string? folder = AppContext.BaseDirectory; folder is not null; folder = Path.GetDirectoryName(folder))
        {
            if (File.Exists(Path.Combine(folder, "ListMmf.sln")))
            {
                return folder;
            }
        }

        return null;
    }
}

/// <summary>A run of the 1.x probe: its exit code, standard output and standard error.</summary>
public sealed record ToolRun(int ExitCode, string Output, string Error);

/// <summary>A test that runs ListMmf 1.x: skipped where its source is not beside the repository, or under Windows.</summary>
public sealed class ListMmf1xFactAttribute : FactAttribute
{
    public ListMmf1xFactAttribute()
    {
        if (ListMmf1x.Source is null)
        {
            Skip = "needs ListMmf 1.3.0's source beside the repository (../shared/listmmf-1.x), which .ci/run's machine has";
        }
        else if (OperatingSystem.IsWindows())
        {
            Skip = "builds ListMmf 1.x with the dotnet SDK, which the Wine stage does not have";
        }
    }
}
