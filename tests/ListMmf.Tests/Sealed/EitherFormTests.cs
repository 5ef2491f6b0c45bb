using System;
using ListMmf.Sealed;
using Xunit;

namespace ListMmf.Tests.Sealed;

/// <summary>
/// Opening a file in the form it is in while another process seals or unseals it between the check and the open
/// (<see cref="EitherForm"/>): the open that the other's rename beat takes the form the path holds now.
/// </summary>
public sealed class EitherFormTests
{
    [Fact]
    public void AnAppendableOpenThatASealBeatToThePathOpensTheSealedFile()
    {
        bool sealedYet = false;

        string opened = EitherForm.Open(
            () => sealedYet,
            () =>
            {
                sealedYet = true;
                throw new ListMmfFormatException("list.mmf", "it is sealed now.");
            },
            () => "sealed");

        Assert.Equal("sealed", opened);
    }

    [Fact]
    public void ASealedOpenThatAnUnsealBeatToThePathOpensTheAppendableFile()
    {
        bool sealedStill = true;

        string opened = EitherForm.Open(
            () => sealedStill,
            () => "appendable",
            () =>
            {
                sealedStill = false;
                throw new ListMmfFormatException("list.mmf", "it is not a sealed file now.");
            });

        Assert.Equal("appendable", opened);
    }

    [Fact]
    public void ADamagedSealedFileIsReportedNotOpenedAsAppendable()
    {
        Assert.Throws<ListMmfFormatException>(() => EitherForm.Open<string>(
            () => true,
            () => "appendable",
            () => throw new ListMmfFormatException("list.mmf", "its directory is damaged.")));
    }
}
