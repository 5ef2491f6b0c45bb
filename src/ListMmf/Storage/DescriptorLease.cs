using System;
using System.Runtime.InteropServices;

namespace ListMmf.Storage;

/// <summary>
/// The raw descriptor of a <see cref="SafeHandle"/> for one system call: the handle is referenced until disposal,
/// so it cannot be closed (and its number reused) while the call runs.
/// </summary>
internal ref struct DescriptorLease
{
    private readonly SafeHandle _handle;
    private bool _referenced;

    public DescriptorLease(SafeHandle handle)
    {
        _handle = handle;
        _referenced = false;
        handle.DangerousAddRef(ref _referenced);
        Descriptor = (int)handle.DangerousGetHandle();
    }

    public int Descriptor { get; }

    public void Dispose()
    {
        if (_referenced)
        {
            _handle.DangerousRelease();
            _referenced = false;
        }
    }
}
