using System;
using Xunit;

namespace ListMmf.Tests.SharedFolder;

/// <summary>
/// A test that needs a writer who is not root beside a second user (LISTMMF_SHARED_FOLDER_USERS, which .ci/run sets
/// after creating both as root): root opens any file, so what another user's permissions do to a writer cannot be
/// seen as root.
/// </summary>
public sealed class OtherWriterFactAttribute : FactAttribute
{
    public OtherWriterFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "needs Linux (runuser)";
        }
        else if (SharedFolder.OtherWriter is null)
        {
            Skip = "needs LISTMMF_SHARED_FOLDER_USERS=planter,writer naming two users who are not root (.ci/run creates them as root)";
        }
    }
}

/// <summary>
/// A test whose links must belong to another user (LISTMMF_SHARED_FOLDER_USERS names the planter, whom .ci/run creates
/// as root): a link this process makes is its user's own, which the library follows.
/// </summary>
public sealed class PlanterFactAttribute : FactAttribute
{
    public PlanterFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
        {
            Skip = "needs Linux: only there does the library learn who owns a link (statx), and only there does runuser plant as another user";
        }
        else if (SharedFolder.Planter is null)
        {
            Skip = "needs LISTMMF_SHARED_FOLDER_USERS=planter,writer naming a user who is not this one (.ci/run creates them as root)";
        }
    }
}

/// <summary>A <see cref="PlanterFactAttribute"/> run in each kind of folder (<see cref="SharedFolder.Kinds"/>).</summary>
public sealed class PlanterTheoryAttribute : TheoryAttribute
{
    public PlanterTheoryAttribute() => Skip = new PlanterFactAttribute().Skip;
}

/// <summary>A Windows test that plants a symbolic link: skipped where this process may not create one (no privilege, or Wine without them).</summary>
public sealed class WindowsSymbolicLinkFactAttribute : FactAttribute
{
    public WindowsSymbolicLinkFactAttribute()
    {
        Skip = !OperatingSystem.IsWindows()
            ? "needs Windows (the Wine stage runs it): the code it checks runs only there"
            : SymbolicLinks.Unsupported.Value;
    }
}

/// <summary>A theory that plants symbolic links, on any system: skipped where this process may not create one (Wine).</summary>
public sealed class SymbolicLinkTheoryAttribute : TheoryAttribute
{
    public SymbolicLinkTheoryAttribute() => Skip = SymbolicLinks.Unsupported.Value;
}

/// <summary>Whether this process can make symbolic links, probed once.</summary>
public static class SymbolicLinks
{
    /// <summary>Why this process cannot make a symbolic link here, or null when it can.</summary>
    public static readonly Lazy<string?> Unsupported = new(Probe);

    private static string? Probe()
    {
        string directory = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "listmmf-link-probe-" + Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(directory);
        try
        {
            string target = System.IO.Path.Combine(directory, "target");
            System.IO.File.WriteAllText(target, "x");
            string link = System.IO.Path.Combine(directory, "link");
            System.IO.File.CreateSymbolicLink(link, target);
            return new System.IO.FileInfo(link).LinkTarget is null
                ? "this system made no symbolic link (CreateSymbolicLink left a plain file)"
                : null;
        }
        catch (Exception exception) when (exception is System.IO.IOException or UnauthorizedAccessException or PlatformNotSupportedException)
        {
            return $"this process may not create symbolic links here: {exception.Message}";
        }
        finally
        {
            System.IO.Directory.Delete(directory, recursive: true);
        }
    }
}
