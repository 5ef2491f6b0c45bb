using System;
using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace ListMmf.Hashing;

/// <summary>
/// XXH3 64-bit, seed 0, default secret: the checksum that <c>xxhsum -H3</c> prints and that
/// <c>System.IO.Hashing.XxHash3</c> computes. Implemented here because System.IO.Hashing cannot be restored
/// from the package feed this project builds against. One-shot over a pointer with a 64-bit length, so whole
/// mapped files of several gigabytes hash without copying.
/// </summary>
internal static unsafe class XxHash3
{
    private const ulong Prime32_1 = 0x9E3779B1UL;
    private const ulong Prime32_2 = 0x85EBCA77UL;
    private const ulong Prime32_3 = 0xC2B2AE3DUL;
    private const ulong Prime64_1 = 0x9E3779B185EBCA87UL;
    private const ulong Prime64_2 = 0xC2B2AE3D27D4EB4FUL;
    private const ulong Prime64_3 = 0x165667B19E3779F9UL;
    private const ulong Prime64_4 = 0x85EBCA77C2B2AE63UL;
    private const ulong Prime64_5 = 0x27D4EB2F165667C5UL;
    private const ulong PrimeMx1 = 0x165667919E3779F9UL;
    private const ulong PrimeMx2 = 0x9FB21C651E98DF25UL;

    private const int StripeLength = 64;
    private const int SecretConsumeRate = 8;
    private const int SecretLength = 192;
    private const int StripesPerBlock = (SecretLength - StripeLength) / SecretConsumeRate;
    private const int BlockLength = StripeLength * StripesPerBlock;
    private const int MidSizeMax = 240;

    private static ReadOnlySpan<byte> Secret =>
    [
        0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
        0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
        0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
        0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
        0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
        0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
        0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
        0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
        0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
        0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
        0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
        0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
    ];

    /// <summary>The XXH3 64-bit hash of <paramref name="data"/>.</summary>
    public static ulong Hash64(ReadOnlySpan<byte> data)
    {
        fixed (byte* pointer = data)
        {
            return Hash64(pointer, data.Length);
        }
    }

    /// <summary>The XXH3 64-bit hash of <paramref name="length"/> bytes at <paramref name="data"/>.</summary>
    public static ulong Hash64(byte* data, long length)
    {
        fixed (byte* secret = Secret)
        {
            return length switch
            {
                0 => Avalanche64(Read64(secret + 56) ^ Read64(secret + 64)),
                <= 3 => Hash1To3(data, (int)length, secret),
                <= 8 => Hash4To8(data, (int)length, secret),
                <= 16 => Hash9To16(data, (int)length, secret),
                <= 128 => Hash17To128(data, (int)length, secret),
                <= MidSizeMax => Hash129To240(data, (int)length, secret),
                _ => HashLong(data, length, secret),
            };
        }
    }

    private static ulong Hash1To3(byte* data, int length, byte* secret)
    {
        uint combined = ((uint)data[0] << 16) | ((uint)data[length >> 1] << 24) | data[length - 1] | ((uint)length << 8);
        ulong bitflip = Read32(secret) ^ Read32(secret + 4);
        return Avalanche64(combined ^ bitflip);
    }

    private static ulong Hash4To8(byte* data, int length, byte* secret)
    {
        ulong input1 = Read32(data);
        ulong input2 = Read32(data + length - 4);
        ulong bitflip = Read64(secret + 8) ^ Read64(secret + 16);
        ulong keyed = (input2 + (input1 << 32)) ^ bitflip;
        return Rrmxmx(keyed, (ulong)length);
    }

    private static ulong Hash9To16(byte* data, int length, byte* secret)
    {
        ulong bitflip1 = Read64(secret + 24) ^ Read64(secret + 32);
        ulong bitflip2 = Read64(secret + 40) ^ Read64(secret + 48);
        ulong low = Read64(data) ^ bitflip1;
        ulong high = Read64(data + length - 8) ^ bitflip2;
        ulong accumulator = (ulong)length + BinaryPrimitives.ReverseEndianness(low) + high + Multiply128Fold64(low, high);
        return Avalanche(accumulator);
    }

    private static ulong Hash17To128(byte* data, int length, byte* secret)
    {
        ulong accumulator = (ulong)length * Prime64_1;
        if (length > 32)
        {
            if (length > 64)
            {
                if (length > 96)
                {
                    accumulator += Mix16(data + 48, secret + 96);
                    accumulator += Mix16(data + length - 64, secret + 112);
                }

                accumulator += Mix16(data + 32, secret + 64);
                accumulator += Mix16(data + length - 48, secret + 80);
            }

            accumulator += Mix16(data + 16, secret + 32);
            accumulator += Mix16(data + length - 32, secret + 48);
        }

        accumulator += Mix16(data, secret);
        accumulator += Mix16(data + length - 16, secret + 16);
        return Avalanche(accumulator);
    }

    private static ulong Hash129To240(byte* data, int length, byte* secret)
    {
        const int StartOffset = 3;
        const int LastOffset = 17;
        const int MinimumSecretLength = 136;

        ulong accumulator = (ulong)length * Prime64_1;
        int rounds = length / 16;
        for (int i = 0; i < 8; i++)
        {
            accumulator += Mix16(data + (16 * i), secret + (16 * i));
        }

        accumulator = Avalanche(accumulator);
        for (int i = 8; i < rounds; i++)
        {
            accumulator += Mix16(data + (16 * i), secret + (16 * (i - 8)) + StartOffset);
        }

        accumulator += Mix16(data + length - 16, secret + MinimumSecretLength - LastOffset);
        return Avalanche(accumulator);
    }

    private static ulong HashLong(byte* data, long length, byte* secret)
    {
        const int LastStripeSecretOffset = 7;
        const int MergeSecretOffset = 11;

        ulong* accumulators = stackalloc ulong[8];
        accumulators[0] = Prime32_3;
        accumulators[1] = Prime64_1;
        accumulators[2] = Prime64_2;
        accumulators[3] = Prime64_3;
        accumulators[4] = Prime64_4;
        accumulators[5] = Prime32_2;
        accumulators[6] = Prime64_5;
        accumulators[7] = Prime32_1;

        long blocks = (length - 1) / BlockLength;
        for (long block = 0; block < blocks; block++)
        {
            Accumulate(accumulators, data + (block * BlockLength), secret, StripesPerBlock);
            Scramble(accumulators, secret + SecretLength - StripeLength);
        }

        int lastStripes = (int)((length - 1 - (blocks * BlockLength)) / StripeLength);
        Accumulate(accumulators, data + (blocks * BlockLength), secret, lastStripes);
        Accumulate512(accumulators, data + length - StripeLength, secret + SecretLength - StripeLength - LastStripeSecretOffset);

        ulong result = (ulong)length * Prime64_1;
        for (int i = 0; i < 4; i++)
        {
            byte* key = secret + MergeSecretOffset + (16 * i);
            result += Multiply128Fold64(accumulators[2 * i] ^ Read64(key), accumulators[(2 * i) + 1] ^ Read64(key + 8));
        }

        return Avalanche(result);
    }

    private static void Accumulate(ulong* accumulators, byte* data, byte* secret, int stripes)
    {
        for (int stripe = 0; stripe < stripes; stripe++)
        {
            Accumulate512(accumulators, data + (stripe * StripeLength), secret + (stripe * SecretConsumeRate));
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Accumulate512(ulong* accumulators, byte* data, byte* secret)
    {
        for (int lane = 0; lane < 8; lane++)
        {
            ulong value = Read64(data + (8 * lane));
            ulong key = value ^ Read64(secret + (8 * lane));
            accumulators[lane ^ 1] += value;
            accumulators[lane] += (key & 0xFFFFFFFFUL) * (key >> 32);
        }
    }

    private static void Scramble(ulong* accumulators, byte* secret)
    {
        for (int lane = 0; lane < 8; lane++)
        {
            ulong accumulator = accumulators[lane];
            accumulator ^= accumulator >> 47;
            accumulator ^= Read64(secret + (8 * lane));
            accumulators[lane] = accumulator * Prime32_1;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix16(byte* data, byte* secret) =>
        Multiply128Fold64(Read64(data) ^ Read64(secret), Read64(data + 8) ^ Read64(secret + 8));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Multiply128Fold64(ulong left, ulong right)
    {
        ulong high = Math.BigMul(left, right, out ulong low);
        return low ^ high;
    }

    private static ulong Avalanche(ulong hash)
    {
        hash ^= hash >> 37;
        hash *= PrimeMx1;
        return hash ^ (hash >> 32);
    }

    private static ulong Avalanche64(ulong hash)
    {
        hash ^= hash >> 33;
        hash *= Prime64_2;
        hash ^= hash >> 29;
        hash *= Prime64_3;
        return hash ^ (hash >> 32);
    }

    private static ulong Rrmxmx(ulong hash, ulong length)
    {
        hash ^= BitOperations.RotateLeft(hash, 49) ^ BitOperations.RotateLeft(hash, 24);
        hash *= PrimeMx2;
        hash ^= (hash >> 35) + length;
        hash *= PrimeMx2;
        return hash ^ (hash >> 28);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Read64(byte* pointer) => BinaryPrimitives.ReadUInt64LittleEndian(new ReadOnlySpan<byte>(pointer, 8));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Read32(byte* pointer) => BinaryPrimitives.ReadUInt32LittleEndian(new ReadOnlySpan<byte>(pointer, 4));
}
