using System;
using System.IO;

namespace ListMmf.Sealed;

/// <summary>Opens a file for reading in the form it is in, appendable or sealed, whichever a seal leaves at its path meanwhile.</summary>
internal static class EitherForm
{
    /// <summary>
    /// The file opened with <paramref name="appendable"/>, or with <paramref name="sealedForm"/> where
    /// <paramref name="isSealed"/> says it is sealed: before the open, or once the appendable open has refused a file
    /// that a seal put at the path between the check and the open. Likewise the other way: a sealed open that an
    /// unseal's rename beat to the path opens the appendable file the unseal put there.
    /// </summary>
    /// <param name="isSealed">Looks at the file at the path now.</param>
    /// <param name="appendable">Opens the file as appendable.</param>
    /// <param name="sealedForm">Opens the file as sealed.</param>
    /// <param name="expectSealed">
    /// The form a caller that knows the file expects (a catalog's index records it), tried first without looking; an
    /// open that refuses the file looks, as after a race.
    /// </param>
    public static TResult Open<TResult>(Func<bool> isSealed, Func<TResult> appendable, Func<TResult> sealedForm, bool? expectSealed = null)
    {
        if (expectSealed == true)
        {
            try
            {
                return sealedForm();
            }
            catch (Exception refused) when (refused is ListMmfFormatException or FileNotFoundException)
            {
                // Unsealed since its opener learnt its form, or between an unseal's two renames (Windows): look.
            }
        }

        if (expectSealed == false || !isSealed())
        {
            try
            {
                return appendable();
            }
            catch (ListMmfFormatException) when (isSealed())
            {
            }
        }

        try
        {
            return sealedForm();
        }
        catch (ListMmfFormatException) when (!isSealed())
        {
            return appendable();
        }
    }

    /// <summary>The list at <paramref name="path"/> read-only, as a <see cref="ListMmf{T}"/> or a <see cref="SealedListMmf{T}"/>.</summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    public static IReadOnlyListMmf<T> OpenRead<T>(string path, ListMmfOptions? options = null)
        where T : unmanaged =>
        Open<IReadOnlyListMmf<T>>(
            () => File.Exists(path) && SealedListMmf.IsSealed(path),
            () => new ListMmf<T>(path, FileAccess.Read, options),
            () => new SealedListMmf<T>(path, options));
}
