using System.Linq;
using ListMmf.Sealed;

namespace ListMmf.Tests.Sealed;

/// <summary>What the tests ask of a sealed file's blocks.</summary>
internal static class SealedCodecs
{
    /// <summary>The codec of each block of the sealed file at <paramref name="path"/>, in order.</summary>
    public static SealedCodec[] Of(string path)
    {
        using SealedFile file = SealedFile.Open(path);
        return Enumerable.Range(0, (int)file.BlockCount).Select(block => file.Block(block).Codec).ToArray();
    }
}
