using System;
using System.IO;
using System.Reflection;
using System.Runtime.Loader;
using ListMmf.Storage;
using ListMmf.Tests.MultiProcess;
using Xunit;

namespace ListMmf.Tests.Platform;

/// <summary>
/// The writer's lock belongs to the descriptor it was taken on (an open file description lock, Linux), not to the
/// process: a second copy of the library in the process (another AssemblyLoadContext, as plugin hosts and test
/// runners load it), whose registry of held sidecars is its own, is refused too, and no other descriptor of the
/// sidecar closing drops the lock. With POSIX record locks, both copies got a writer, and the second one's close
/// let a third process in.
/// </summary>
public sealed class WriterLockCopiesTests : IDisposable
{
    private static readonly TimeSpan Deadline = TimeSpan.FromMinutes(2);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [LinuxFact]
    public void ASecondCopyOfTheLibraryInTheProcessIsRefusedWhileTheFirstWrites()
    {
        string path = _directory.File("ticks.bin");
        using var first = new ListMmf<long>(path);
        var context = new AssemblyLoadContext("a second copy of ListMmf", isCollectible: true);
        try
        {
            Assembly copy = context.LoadFromAssemblyPath(typeof(ListMmf<long>).Assembly.Location);
            Assert.NotSame(typeof(ListMmf<long>).Assembly, copy);
            Type list = copy.GetType("ListMmf.ListMmf`1", throwOnError: true)!.MakeGenericType(typeof(long));

            var refused = Assert.Throws<TargetInvocationException>(() => Activator.CreateInstance(list, path, FileAccess.ReadWrite, null));

            Assert.Equal("ListMmfLockedException", refused.InnerException?.GetType().Name);
        }
        finally
        {
            context.Unload();
        }
    }

    [LinuxFact]
    public void AnotherProcessIsRefusedAfterTheSecondCopysRefusal()
    {
        string path = _directory.File("ticks.bin");
        using var first = new ListMmf<long>(path);
        var context = new AssemblyLoadContext("a second copy of ListMmf", isCollectible: true);
        try
        {
            Type list = context.LoadFromAssemblyPath(typeof(ListMmf<long>).Assembly.Location)
                .GetType("ListMmf.ListMmf`1", throwOnError: true)!.MakeGenericType(typeof(long));
            try
            {
                ((IDisposable)Activator.CreateInstance(list, path, FileAccess.ReadWrite, null)!).Dispose();
            }
            catch (TargetInvocationException)
            {
            }
        }
        finally
        {
            context.Unload();
        }

        using ChildProcess other = ChildProcess.Start("create", path);
        Assert.Equal(5, other.WaitForExit(Deadline));
    }

    [LinuxFact]
    public void UserCodeOpeningAndClosingTheWriterLockLeavesTheWriterHoldingIt()
    {
        string path = _directory.File("ticks.bin");
        using var writer = new ListMmf<long>(path);
        using (File.OpenHandle(WriterLock.PathFor(path), FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite))
        {
        }

        using ChildProcess other = ChildProcess.Start("create", path);
        Assert.Equal(5, other.WaitForExit(Deadline));
    }
}
