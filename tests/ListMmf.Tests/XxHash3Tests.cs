using System;
using ListMmf.Hashing;
using Xunit;

namespace ListMmf.Tests;

/// <summary>
/// The checksum matches the reference XXH3-64 across every length class of the algorithm (0, 1-3, 4-8, 9-16,
/// 17-128, 129-240, and the long path with full and partial blocks). The expected values were produced by
/// <c>xxhsum -H3</c> (xxHash 0.8.1) over the same bytes.
/// </summary>
public sealed class XxHash3Tests
{
    [Theory]
    [InlineData(0, 0x2d06800538d394c2UL)]
    [InlineData(1, 0xe12ef9d2eb86ceebUL)]
    [InlineData(2, 0xb41bd28890916f65UL)]
    [InlineData(3, 0x223935d4951a8dfcUL)]
    [InlineData(4, 0xbb31d181b2fc23fbUL)]
    [InlineData(5, 0x27799c6844390bbbUL)]
    [InlineData(7, 0x44ea4e71fe711524UL)]
    [InlineData(8, 0x8e3b83214a8abcc8UL)]
    [InlineData(9, 0x9ac43dea6bec3886UL)]
    [InlineData(15, 0x252547f5401cd0caUL)]
    [InlineData(16, 0x3eb550536330f071UL)]
    [InlineData(17, 0x2aa29f580c66fdd6UL)]
    [InlineData(31, 0x7dd005151681514fUL)]
    [InlineData(32, 0xf44dac7ae6ba58cfUL)]
    [InlineData(33, 0x401d9fd289c8dc36UL)]
    [InlineData(63, 0xd931e810277ad780UL)]
    [InlineData(64, 0xf4a6ed3d10602ed8UL)]
    [InlineData(65, 0x12f2752265073d37UL)]
    [InlineData(96, 0x921ca43ad64fbec5UL)]
    [InlineData(97, 0x242e86b22cdc38c6UL)]
    [InlineData(127, 0x3b771c68d68fb2a4UL)]
    [InlineData(128, 0x88f7a367d5e49f9eUL)]
    [InlineData(129, 0xba1ba1c1c07ed1f6UL)]
    [InlineData(130, 0x3147541284812113UL)]
    [InlineData(200, 0x945694daa75bb1c3UL)]
    [InlineData(239, 0xac84c8777d6a5945UL)]
    [InlineData(240, 0xa2d2bd71435a4c3bUL)]
    [InlineData(241, 0x9f2bf485cfe772bbUL)]
    [InlineData(255, 0xfa11025e93807515UL)]
    [InlineData(256, 0x633b13899a4ca69dUL)]
    [InlineData(1023, 0x87d67719f74342ddUL)]
    [InlineData(1024, 0x66a7091480a75327UL)]
    [InlineData(1025, 0xe28f8a245ca4834eUL)]
    [InlineData(2047, 0x5b51a1c09f0f942aUL)]
    [InlineData(2048, 0x8d0457dd65313b1fUL)]
    [InlineData(4109, 0xe1c3b3664587661cUL)]
    [InlineData(100003, 0x526a8c1caa6ddb62UL)]
    public void MatchesTheReferenceImplementation(int length, ulong expected)
    {
        var bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(((i * 167) + 13) >> 3);
        }

        Assert.Equal(expected, XxHash3.Hash64(bytes));
    }
}
