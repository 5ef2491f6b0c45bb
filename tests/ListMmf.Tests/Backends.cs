using System;
using Xunit;

namespace ListMmf.Tests;

/// <summary>The mapping backends this system can run, as theory data: every list test runs on each.</summary>
public static class Backends
{
    public static TheoryData<MappingBackend> All
    {
        get
        {
            var data = new TheoryData<MappingBackend> { MappingBackend.MemoryMappedFile };
            if (!OperatingSystem.IsWindows())
            {
                data.Add(MappingBackend.Posix);
            }

            return data;
        }
    }

    /// <summary>Every backend here with each file format.</summary>
    public static TheoryData<MappingBackend, ListMmfFormatVersion> AllWithFormats
    {
        get
        {
            var data = new TheoryData<MappingBackend, ListMmfFormatVersion>();
            foreach (MappingBackend backend in All)
            {
                data.Add(backend, ListMmfFormatVersion.Version1);
                data.Add(backend, ListMmfFormatVersion.Version2);
            }

            return data;
        }
    }

    public static ListMmfOptions Options(MappingBackend backend, long initialCapacity = 0) =>
        new() { Backend = backend, InitialCapacity = initialCapacity };
}
