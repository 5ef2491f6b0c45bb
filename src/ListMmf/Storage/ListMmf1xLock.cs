using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Net;
using System.Text.Json;

namespace ListMmf.Storage;

/// <summary>
/// ListMmf 1.x's writer lock on a version 1 file, taken beside this library's own, so that a writer of either library
/// is not let in beside a live one of the other during a migration. 1.x's writer creates <c>F.lock</c> exclusively
/// and writes who holds it as JSON (process id, its start time, host, a lock id); it takes over a lock whose process
/// is gone. This library's writer of a version 1 file refuses while a live process holds that lock, creates it the
/// same way while it writes, and removes it when it is done (only where it is still its own).
/// </summary>
/// <remarks>
/// 1.x decides that a lock is stale by comparing the holder's start time as the holder computed it with the start
/// time it computes itself, exactly; .NET derives a process's start time from the boot time as each process
/// estimates it, and two processes' estimates differ by milliseconds, so 1.x deems every other process's lock stale
/// and takes it (two 1.x writers of one file both get in). This library compares them to within
/// <see cref="StartTimeTolerance"/>. A 1.x writer therefore cannot be kept out of a version 1 file this library's
/// writer holds by 1.x's own lock, and 1.x's only other lock (a shared <c>flock</c> on the data file, also taken by
/// its readers) could be refused only together with its readers: version 2 files, which every 1.x release refuses
/// (<see cref="ListMmfHeader.LiveCountGuard"/>), are the protection; this lock keeps this library's writers, and
/// <c>upgrade</c>, away from a live 1.x writer.
/// </remarks>
internal sealed class ListMmf1xLock : IDisposable
{
    /// <summary>The name 1.x's lock file has: the data file's path as given, and this.</summary>
    public const string Suffix = ".lock";

    /// <summary>
    /// How far apart two processes' views of one process's start time may be and still name the same process. Each
    /// process estimates the boot time once, from the wall clock and the time since boot; the estimates differ by
    /// milliseconds on a quiet machine, but by the delay between the two reads on a busy one and by any step of the
    /// wall clock between two processes' estimates (a paused or migrated VM, an NTP step). Too small a tolerance calls a
    /// live writer's lock stale and lets a second writer in; too large one refuses a writer for a process id reused
    /// within it of the holder's start, naming that process: the safe side, so the tolerance is wide.
    /// </summary>
    private static readonly TimeSpan StartTimeTolerance = TimeSpan.FromMinutes(1);

    /// <summary>How long a lock of another host is believed, as 1.x believes one it cannot check.</summary>
    private static readonly TimeSpan ForeignHostLockAge = TimeSpan.FromDays(1);

    private readonly string _path;
    private readonly Guid _id;

    private ListMmf1xLock(string path, Guid id)
    {
        _path = path;
        _id = id;
    }

    /// <summary>
    /// Takes 1.x's lock on the version 1 file at <paramref name="dataPath"/>; null where 1.x locks without a lock file
    /// (<see cref="StoragePlatform.HasListMmf1xLockFiles"/>).
    /// </summary>
    /// <exception cref="ListMmfLockedException">A live process holds it: a 1.x writer, or this library's writer of
    /// another name of the file.</exception>
    /// <exception cref="ListMmfException">Something other than a regular file is at its name, or it cannot be created.</exception>
    public static ListMmf1xLock? Acquire(string dataPath)
    {
        if (!StoragePlatform.Current.HasListMmf1xLockFiles)
        {
            return null;
        }

        string path = dataPath + Suffix;
        var id = Guid.NewGuid();
        byte[] metadata = Metadata(id, dataPath);
        const int Attempts = 4;
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                using FileStream file = ExclusiveFile.CreateNew(path);
                file.Write(metadata);
                file.Flush(flushToDisk: true);
                return new ListMmf1xLock(path, id);
            }
            catch (IOException exception)
                when (exception is not ListMmfException && StoragePlatform.Current.MeansNameTaken(exception) && attempt < Attempts)
            {
                if (HolderOf(path) is { } holder)
                {
                    throw new ListMmfLockedException(dataPath, $"ListMmf 1.x's writer lock '{path}' is held by {holder}; a " +
                        "version 1 file has one writer at a time, whichever library it runs.");
                }

                // Stale, as 1.x takes a stale lock: its name is removed and created again, exclusively.
                File.Delete(path);
            }
            catch (IOException exception) when (exception is not ListMmfException)
            {
                throw new ListMmfException(dataPath, $"ListMmf 1.x's writer lock '{path}' could not be created: {exception.Message}", exception);
            }
        }
    }

    /// <summary>Removes the lock file, where it is still this lock's (a 1.x writer may have taken it over as stale).</summary>
    public void Dispose()
    {
        try
        {
            if (SideFile.ReadAll(_path, "ListMmf 1.x's writer lock") is { } held && LockIdOf(held) == _id)
            {
                File.Delete(_path);
            }
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or JsonException)
        {
            // Another process's lock now, or gone: nothing of this writer's to remove.
        }
    }

    /// <summary>Who holds the lock file at <paramref name="path"/>, for a refusal; null where its holder is gone.</summary>
    private static string? HolderOf(string path)
    {
        byte[]? bytes = SideFile.ReadAll(path, "ListMmf 1.x's writer lock");
        if (bytes is null)
        {
            return null;
        }

        try
        {
            using var json = JsonDocument.Parse(bytes);
            JsonElement root = json.RootElement;
            int pid = root.GetProperty("Pid").GetInt32();
            DateTimeOffset started = root.GetProperty("PidStartTimeUtc").GetDateTimeOffset();
            DateTimeOffset written = root.GetProperty("TimestampUtc").GetDateTimeOffset();
            string host = root.TryGetProperty("Hostname", out JsonElement name) ? name.GetString() ?? "" : "";
            string holder = string.Create(CultureInfo.InvariantCulture, $"process {pid} on '{host}', started {started:u}");
            if (!string.Equals(host, HostName(), StringComparison.OrdinalIgnoreCase))
            {
                return DateTimeOffset.UtcNow - written < ForeignHostLockAge ? holder : null;
            }

            return IsRunning(pid, started) ? holder : null;
        }
        catch (Exception exception) when (exception is JsonException or InvalidOperationException or KeyNotFoundException or FormatException)
        {
            // 1.x takes a lock whose metadata it cannot read as stale.
            return null;
        }
    }

    private static bool IsRunning(int pid, DateTimeOffset started)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited && (process.StartTime.ToUniversalTime() - started.UtcDateTime).Duration() <= StartTimeTolerance;
        }
        catch (ArgumentException)
        {
            return false;
        }
        catch (Exception exception) when (exception is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            // Running, but its start time cannot be read (another user's process where that is private): held.
            return true;
        }
    }

    private static Guid? LockIdOf(byte[] bytes)
    {
        using var json = JsonDocument.Parse(bytes);
        return json.RootElement.TryGetProperty("LockId", out JsonElement id) && id.TryGetGuid(out Guid value) ? value : null;
    }

    /// <summary>The metadata 1.x writes, with this process's id and start time, so that a 1.x process reads it as its own kind.</summary>
    private static byte[] Metadata(Guid id, string dataPath)
    {
        using var process = Process.GetCurrentProcess();
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteNumber("Pid", process.Id);
            writer.WriteString("PidStartTimeUtc", new DateTimeOffset(process.StartTime.ToUniversalTime()));
            writer.WriteString("TimestampUtc", DateTimeOffset.UtcNow);
            writer.WriteString("Hostname", HostName());
            writer.WriteString("User", Environment.UserName);
            writer.WriteString("LockId", id);
            writer.WriteString("DataFilePath", dataPath);
            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    private static string HostName()
    {
        try
        {
            return Dns.GetHostName();
        }
        catch (System.Net.Sockets.SocketException)
        {
            return Environment.MachineName;
        }
    }
}
