using System;
using System.Diagnostics;
using System.IO;
using System.Runtime.Versioning;
using Xunit;

namespace ListMmf.Tests.SharedFolder;

/// <summary>
/// A team folder as many servers have them: every user may write it and it has no sticky bit (0777), so another
/// user can put any name in it. The names are planted by a second Unix user where LISTMMF_SHARED_FOLDER_USERS names
/// one ("planter,writer", created by <c>.ci/run</c> as root), and by this process elsewhere: the kernel follows a
/// link whoever made it, so both show the same flaw.
/// </summary>
[UnsupportedOSPlatform("windows")]
public sealed class SharedFolder : IDisposable
{
    private readonly TempDirectory _directory = new();

    /// <param name="team">
    /// A team folder as the docs advise instead of the open one: group-owned by LISTMMF_TEAM_GROUP (the planter's and
    /// the other writer's group, which .ci/run creates as root), mode 3770 (setgid, sticky, the group's alone).
    /// </param>
    public SharedFolder(bool team = false)
    {
        if (!team)
        {
            System.IO.File.SetUnixFileMode(_directory.Path, (UnixFileMode)0b111_111_111);
            return;
        }

        using (Process chgrp = Process.Start("chgrp", [TeamGroup ?? throw new InvalidOperationException("no LISTMMF_TEAM_GROUP"), _directory.Path])!)
        {
            chgrp.WaitForExit();
            if (chgrp.ExitCode != 0)
            {
                throw new InvalidOperationException($"chgrp {TeamGroup} failed with {chgrp.ExitCode}");
            }
        }

        System.IO.File.SetUnixFileMode(_directory.Path, (UnixFileMode)0b011_111_111_000);
    }

    /// <summary>The team's group, whose members are the planter and the other writer; null where there is none.</summary>
    public static string? TeamGroup => Environment.GetEnvironmentVariable("LISTMMF_TEAM_GROUP") is { Length: > 0 } group ? group : null;

    /// <summary>The kinds of folder a planter test runs in: the open 0777 folder, and the 3770 team folder where there is a team group.</summary>
    public static TheoryData<bool> Kinds()
    {
        var kinds = new TheoryData<bool> { false };
        if (TeamGroup is not null)
        {
            kinds.Add(true);
        }

        return kinds;
    }

    /// <summary>The second user, who plants names; null where this process plants them.</summary>
    public static string? Planter => Users?[0];

    /// <summary>A third user, a writer who is not root, for what root's permissions would hide; null where there is none.</summary>
    public static string? OtherWriter => Users is [_, string writer] ? writer : null;

    private static string[]? Users =>
        Environment.GetEnvironmentVariable("LISTMMF_SHARED_FOLDER_USERS") is { Length: > 0 } users ? users.Split(',') : null;

    public string Path => _directory.Path;

    public string File(string name) => _directory.File(name);

    /// <summary>Runs <paramref name="command"/> as the planter, and waits for it; throws if it fails.</summary>
    public static void Plant(params string[] command)
    {
        using Process process = StartAsPlanter(command);
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"'{string.Join(' ', command)}' failed: {process.StandardError.ReadToEnd()}");
        }
    }

    /// <summary>Starts <paramref name="command"/> as the planter; the caller kills it.</summary>
    public static Process StartAsPlanter(params string[] command)
    {
        var start = new ProcessStartInfo(Planter is null ? command[0] : "runuser")
        {
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (Planter is not null)
        {
            foreach (string arg in (string[])["-u", Planter, "--", command[0]])
            {
                start.ArgumentList.Add(arg);
            }
        }

        foreach (string arg in command[1..])
        {
            start.ArgumentList.Add(arg);
        }

        return Process.Start(start)!;
    }

    /// <summary>
    /// Starts the planter swapping links at <paramref name="name"/> as fast as it can: a link to
    /// <paramref name="first"/>, then (with <paramref name="second"/>) a link to that, or (without) no name at all, each
    /// put in place by one rename. Python's loop takes microseconds per swap, so the swaps land between a writer's
    /// system calls; the caller kills it. With <paramref name="asPlanter"/> false the links are this user's own, which
    /// the library follows (a link of the user's that another of the user's processes flips).
    /// </summary>
    public static Process StartLinkSwapper(string name, string first, string? second, bool asPlanter = true)
    {
        const string Script = """
            import os, sys
            name, first, second = sys.argv[1], sys.argv[2], sys.argv[3]
            planting = name + ".planting"
            while True:
                for target in (first, second):
                    if target:
                        try:
                            os.symlink(target, planting)
                        except FileExistsError:
                            pass
                        os.rename(planting, name)
                    else:
                        try:
                            os.unlink(name)
                        except OSError:
                            pass
            """;
        return asPlanter
            ? StartAsPlanter("python3", "-c", Script, name, first, second ?? "")
            : Process.Start("python3", ["-c", Script, name, first, second ?? ""]);
    }

    /// <summary>
    /// Another user's file the planted names point at: bytes and a mode of its own (0600), outside the folder, so
    /// that a test can tell whether the writer wrote, truncated or changed it.
    /// </summary>
    public sealed class Victim : IDisposable
    {
        private static readonly byte[] s_contents = "the victim's own bytes\n"u8.ToArray();
        private readonly TempDirectory _home = new();

        public Victim(bool create = true)
        {
            Path = _home.File(".bash_login");
            if (create)
            {
                System.IO.File.WriteAllBytes(Path, s_contents);
                System.IO.File.SetUnixFileMode(Path, UnixFileMode.UserRead | UnixFileMode.UserWrite);
            }
        }

        public string Path { get; }

        /// <summary>Whether the file is as it was made: its bytes and its mode (or, made absent, still absent).</summary>
        public bool IsUntouched(bool created = true) => created
            ? System.IO.File.Exists(Path)
                && System.IO.File.ReadAllBytes(Path).AsSpan().SequenceEqual(s_contents)
                && System.IO.File.GetUnixFileMode(Path) == (UnixFileMode.UserRead | UnixFileMode.UserWrite)
            : !System.IO.File.Exists(Path);

        public void Dispose() => _home.Dispose();
    }

    public void Dispose() => _directory.Dispose();
}
