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
