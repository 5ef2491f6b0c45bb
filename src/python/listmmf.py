"""Read ListMmf files from Python (standard library; numpy when it is importable).

A ListMmf file is a little-endian header followed by the items, in one of two formats (docs/file-format.md):

    version 1 (ListMmf 1.x), 16 bytes:
    offset 0   Int32  version (0; -1 marks a file being replaced, see REPLACED_VERSION)
    offset 4   Int32  data-type code (see ``TYPES``)
    offset 8   Int64  count: how many items are real (the published length)
    offset 16  items

    version 2, a multiple of 4,096 bytes:
    offset 0   Int32  version (2)        offset 24  Int64  durable count
    offset 4   Int32  data-type code     offset 32  UInt64 boot session of the live count
    offset 8   Int64  live count + 2^62  offset 40  Int32  writer generation
    offset 16  Int32  state (0; -1 replaced)   offset 44  Int32  item size
    offset 20  Int32  items offset       offset 48  Int32  description length
    offset 56  UInt32 CRC-32 of what never changes;  offset 64  the description (JSON);  the items at the items offset

    version 3, the sealed form of a finished list (``listmmf seal``): the same first 64 bytes (count + 2^62 at 8,
    state at 16, item size at 44), ``LMSEALED`` at 64, then blocks of 1,024 values, compressed, and a directory at the end.
    This module decodes it (docs/file-format.md, "The sealed form"), checking every checksum on the way, into the
    same kind of items an unsealed file gives.

The file is usually longer than the items: its length is capacity. A writer process may be appending while this
module reads, so each call takes one snapshot of the count (the header is read until two reads agree, as the C#
library does) and never looks past that many items. A version 2 file whose live count was written in another boot
of this machine (or on another machine) is read up to its durable count, as the C# library reads it: after a power
loss the live count may have reached the disk before its items.

Functions:

``read_header(path)``  the header as a ``Header``, checked against the file length.
``open_items(path)``   the items: a read-only ``numpy.memmap`` with numpy, else a read-only ``memoryview`` over an
                       ``mmap``; for the odd-width integer codes a decoded int64 array (numpy) or list of ints. A
                       sealed file's items are decoded into memory: a read-only numpy array, else a memoryview.
``open_times(path)``   DateTime (12) and UnixSeconds (13) items as ``datetime64`` (numpy) or naive ``datetime``.
``read_description(path)`` what a file's ``FILE.listmmf.json`` records (struct fields, order, UTC), or None.
``to_pandas(table_dir, start, end, columns)`` a table folder (``table.json`` and its column files), or the rows of
                       a time range and the columns named, as a ``pandas.DataFrame``, when pandas is importable.
``to_dask(table_dirs, start, end, columns)`` many table folders as one ``dask.dataframe``, a partition per table,
                       each mapped where Dask runs it, when dask is importable.

Every problem with a file raises ``ListMmfError`` (a ``ValueError``) whose message starts with the file's path.

A folder may be shared with other users, who can plant names in it; the reader is as strict as the C# library there.
A table's column names and file names are plain file names (``_name_problem``), so a manifest never leads a read
out of its folder. The small files read whole, a manifest and a version 1 file's description, are opened without
following a symbolic link, must be regular files and at most ``SIDE_FILE_LIMIT`` bytes, so a link to /dev/zero or
a FIFO neither reads forever nor blocks; a data file must be a regular file too, checked before it is read. Malformed
input (JSON too deep, fields of the wrong kind, impossible sizes) raises ``ListMmfError``, whose message never
quotes a file's bytes.

Command line: ``python3 listmmf.py FILE...`` prints each file's header and its first and last few items; it exits
1, with one line on stderr per bad file, if any file could not be read.
"""

import codecs
import collections
import datetime
import errno
import functools
import json
import math
import mmap
import os
import re
import stat
import struct
import sys
import time
import unicodedata
import zlib

try:
    import numpy as np
except ImportError:
    np = None

HEADER_SIZE = 16
"""Size of a version 1 header in bytes; its first item starts here."""

VERSION = 0
"""The version field of a version 1 file (ListMmf 1.x's format)."""

VERSION_1 = 1
"""``Header.version`` of a version 1 file, whose version field is ``VERSION``: headers give the format's number, as
the .NET library's ``ListMmfFileInfo.Version`` and ``listmmf info`` do."""

VERSION_2 = 2
"""The version field of a version 2 file."""

SEALED_VERSION = 3
"""The version field of a sealed file."""

LIVE_COUNT_GUARD = 1 << 62
"""Bit 62, always set in the count field of a version 2 or sealed file and taken off by readers: ListMmf 1.x reads
that field as its count and refuses a count past its file's capacity, so it never reads or writes these files."""

_SEALED_FIXED = 128
"""The bytes of a sealed header before its description."""

_SEALED_BLOCK_VALUES = 1024
_SEALED_BLOCK_HEADER = 40
_SEALED_FLOATS = {10: ("<f", "<f4"), 11: ("<d", "<f8")}
_MASK64 = (1 << 64) - 1
_SEALED_ZERO_RANGES = ((32, 12), (52, 4), (60, 4), (100, 4), (112, 16))
"""The sealed header's fields that are always zero, as (start, length)."""
_SEALED_SIGNED = frozenset((2, 4, 6, 8, 12, 13, 14, 15, 16, 17))
"""The data-type codes whose sealed integers are signed (sign-extended); the other integer codes are unsigned."""
_SEALED_INTEGER_LIMITS = {"<f": (1 << 24) - 1, "<d": (1 << 53) - 1}
"""The largest magnitude of a tick or decimal block's integers, by item format: each converts exactly."""
_POWERS_OF_TEN = {"<f": frozenset(10.0 ** e for e in range(1, 11)), "<d": frozenset(float(10 ** e) for e in range(1, 23))}
"""The steps a decimal block may hold, by item format: the powers of ten the type holds exactly."""
_INTEGER_CODECS = (1, 2, 7, 8)
"""The codecs of integer blocks: frame of reference, deltas, patched, dictionary."""
_TICK_CODECS = (3, 4, 9)
"""The codecs whose integers are multiplied by a power of two: ticks, tick deltas, tick dictionary."""
_DECIMAL_CODECS = (5, 6, 10)
"""The codecs whose integers are divided by a power of ten: decimals, decimal deltas, decimal dictionary."""
_DICTIONARY_CODECS = (8, 9, 10)
"""The codecs whose values are indexes into the block's dictionary of its distinct values, packed after them."""
_STEPPED = 11
"""The stepped frame of reference: each value the base plus a whole number of steps, the header's step an Int64."""
_ELIAS_FANO = 12
"""Elias-Fano: ascending values a whole number of steps above the base, each one's steps as low bits packed and a
high part in unary in a bitmap of the header's bytes 16-19 bits, then the bitmap position of every 64th value."""
_ELIAS_FANO_SAMPLE = 64
"""Every how many values an Elias-Fano block keeps its bit's position as a UInt16 sample."""

_V2_FIXED = 64
"""The bytes of a version 2 header before its description: every field that changes after creation."""

_HEADER_LIMIT = 1 << 20
"""The largest version 2 or sealed header read, description included (1 MiB), as the C# library caps it: a damaged
or hostile header cannot make this reader read a description of gigabytes."""

_MAX_INT64 = (1 << 63) - 1
"""The largest Int64, the bound of a file's sizes and counts in the C# library."""

REPLACED_VERSION = -1
"""The version a writer stores in a file it is about to replace (TruncateBeginning, widening) by a new file renamed
over it. A reader that meets it opens the path again; a file still marked at the path after a few opens is whole
(its writer died before the rename, or is about to rename) and is read as unmarked, as the C# library does."""

_REPLACED_OPENS = 16
"""How often the path is opened while the file there is marked replaced."""

_TypeInfo = collections.namedtuple("_TypeInfo", "name size fmt dtype")

TYPES = {
    0: _TypeInfo("AnyStruct", None, None, None),
    1: _TypeInfo("Bit", None, None, None),
    2: _TypeInfo("SByte", 1, "b", "<i1"),
    3: _TypeInfo("Byte", 1, "B", "<u1"),
    4: _TypeInfo("Int16", 2, "h", "<i2"),
    5: _TypeInfo("UInt16", 2, "H", "<u2"),
    6: _TypeInfo("Int32", 4, "i", "<i4"),
    7: _TypeInfo("UInt32", 4, "I", "<u4"),
    8: _TypeInfo("Int64", 8, "q", "<i8"),
    9: _TypeInfo("UInt64", 8, "Q", "<u8"),
    10: _TypeInfo("Single", 4, "f", "<f4"),
    11: _TypeInfo("Double", 8, "d", "<f8"),
    12: _TypeInfo("DateTime", 8, "q", "<i8"),
    13: _TypeInfo("UnixSeconds", 4, "i", "<i4"),
    14: _TypeInfo("Int24", 3, None, None),
    15: _TypeInfo("Int40", 5, None, None),
    16: _TypeInfo("Int48", 6, None, None),
    17: _TypeInfo("Int56", 7, None, None),
    18: _TypeInfo("UInt24", 3, None, None),
    19: _TypeInfo("UInt40", 5, None, None),
    20: _TypeInfo("UInt48", 6, None, None),
    21: _TypeInfo("UInt56", 7, None, None),
}
"""Data-type code -> (name, item size in bytes or None, struct/memoryview format, numpy dtype).

A format of None with a size marks an odd-width integer (codes 14-17 signed, 18-21 unsigned), decoded by copying.
"""

_UNSUPPORTED = {
    0: "AnyStruct items need their description (FILE.listmmf.json), which records the struct's size and fields, "
       "and numpy",
    1: "Bit items (packed bits) are not supported by this reader",
}

DESCRIPTION_SUFFIX = ".listmmf.json"
"""What a file's description adds to its name: the item size and, for structs, the fields (name, offset, size,
type), the order of a sorted file and whether its times are UTC. Files of ListMmf 1.x have none."""

SIDE_FILE_LIMIT = 1 << 20
"""The most bytes of a side file this reader reads (1 MiB): a table's ``table.json``, a version 1 file's
description. The C# library writes them a few hundred bytes long; a larger one is refused before it is read, so a
name planted in a shared folder cannot make the reader fill memory."""

_SIDE_FILE_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
"""How a side file is opened, where the system has the flags: a symbolic link at its name fails (ELOOP) instead of
being followed to another user's file or a device; a FIFO opens at once instead of waiting for a writer."""

_DATA_FILE_FLAGS = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
"""What a data file's open adds to ``open``'s flags: a FIFO at its name opens at once, and is then refused."""

_FIELD_DTYPES = {
    "SByte": "i1", "Byte": "u1", "Int16": "<i2", "UInt16": "<u2", "Int32": "<i4", "UInt32": "<u4",
    "Int64": "<i8", "UInt64": "<u8", "IntPtr": "<i8", "UIntPtr": "<u8", "Half": "<f2", "Single": "<f4",
    "Double": "<f8", "Boolean": "?", "Char": "<u2", "TimeSpan": "<i8", "DateTime": "<u8",
}
"""A field type of a description -> numpy dtype. Char is its UTF-16 code unit; TimeSpan its ticks; DateTime its raw
64 bits (ticks in the low 62, the DateTimeKind in the top 2: ``raw & 0x3FFFFFFFFFFFFFFF`` are the ticks). Any other
type (Decimal, Guid, Int128, ...) is its bytes, as ``V<size>``; ``T[n]`` is a subarray of n T."""

DATETIME = 12
UNIX_SECONDS = 13

_DOTNET_EPOCH = datetime.datetime(1, 1, 1)
_UNIX_EPOCH = datetime.datetime(1970, 1, 1)
_UNIX_EPOCH_TICKS = 621355968000000000
""".NET ticks (100 ns units since 0001-01-01) of 1970-01-01T00:00:00."""
_MAX_TICKS = 3155378975999999999
"""Ticks of .NET DateTime.MaxValue, 9999-12-31T23:59:59.9999999."""

_HEADER_READS = 64
"""How often the header is read while a writer keeps changing the count under it."""


class ListMmfError(ValueError):
    """A file that is not a readable ListMmf file, or items this reader cannot return."""


Header = collections.namedtuple(
    "Header", "version code type_name item_size count file_length items_offset durable_count description",
    defaults=(HEADER_SIZE, None, None))
Header.__doc__ = """A checked ListMmf header.

version: the format (1 for ListMmf 1.x's, whose version field is 0; 2; or 3 for a sealed file); code: the
data-type code; type_name: the code's name ('Int32', 'UnixSeconds', ...);
item_size: bytes per item, or None for a version 1 AnyStruct or Bit file; count: the number of real items (see the
module's note on version 2); file_length: the file's length in bytes when the header was read (capacity);
items_offset: where the first item starts (16, or a multiple of 4,096; a sealed file's first block); durable_count:
version 2's durable count (None for version 1); description: the description in a version 2 or sealed header as a
dict, or None. A sealed file's file_length is its compressed length, usually far less than count * item_size.
"""


def boot_session():
    """This machine's boot as a version 2 header records it: the first 16 hex digits of Linux's boot_id, else 0."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return int(f.read().strip().replace("-", "")[:16], 16)
    except (OSError, ValueError):
        return 0


_BOOT_SESSION = boot_session()


def _file_kind(mode):
    """What a file that is not a regular file is, for an error message."""
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "neither a regular file, a directory nor a device"


def _require_regular(fd, path, what):
    """Refuses the open file ``fd`` unless it is a regular file: a FIFO would block the reader or feed it what another
    process writes, a device (/dev/zero) never ends; returns its ``os.stat_result``."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise ListMmfError(f"{path}: {what} is not a regular file (it is {_file_kind(info.st_mode)}); "
                           f"this reader reads only regular files")
    return info


_MAXIMUM_LINKS = 40
"""As the kernel's ELOOP: a longer chain of symbolic links is left to the open, which refuses it."""


def _user_name(uid):
    """The user's name and id for a message, or the id alone."""
    if uid is None:
        return "unknown"
    try:
        import pwd
        return f"'{pwd.getpwuid(uid).pw_name}' (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _check_links(path):
    """Walks every name of ``path`` and follows a symbolic link only where it belongs to this user, to root, or to the
    owner of the folder holding it: the C# library's rule (the kernel's ``protected_symlinks``, which does not act in a
    folder only a group can write), so that another member of a team folder cannot point a read at another file.
    Returns whether the path holds a link at all; raises ``ListMmfError`` naming a link the rule refuses. A name that
    does not exist ends the walk. Nothing is checked where the system has no user ids (Windows)."""
    if not hasattr(os, "geteuid"):
        return False
    me = os.geteuid()
    full = os.path.abspath(path)
    pending = [name for name in reversed(full.split(os.sep)) if name and name != "."]
    resolved, links = os.sep, 0
    while pending:
        name = pending.pop()
        if name == "..":
            resolved = os.path.dirname(resolved)
            continue
        candidate = os.path.join(resolved, name)
        try:
            info = os.lstat(candidate)
        except OSError:
            break
        if not stat.S_ISLNK(info.st_mode):
            resolved = candidate
            continue
        try:
            folder_owner = os.stat(resolved).st_uid
        except OSError:
            folder_owner = None
        if info.st_uid not in (me, 0, folder_owner):
            raise ListMmfError(f"{path}: the symbolic link '{candidate}' belongs to user {_user_name(info.st_uid)}, who "
                               f"is neither you, root nor the owner of the folder it is in ({_user_name(folder_owner)}); "
                               f"this reader follows only links made by one of them, so that no other member of a shared "
                               f"folder can point your reads at another file. Nothing was read through it")
        links += 1
        if links > _MAXIMUM_LINKS:
            break
        try:
            target = os.readlink(candidate)
        except OSError:
            break
        if os.path.isabs(target):
            resolved = os.sep
        pending.extend(name for name in reversed(target.split(os.sep)) if name and name != ".")
    return links > 0


def _read_side_file(path, what):
    """The bytes of the side file at ``path`` (``what`` names it in errors): a table's manifest, a version 1 file's
    description, read whole. It is opened without following a symbolic link (another user may have planted one
    toward a file of theirs or a device), without blocking on a FIFO, and read only when it is a regular file of at
    most ``SIDE_FILE_LIMIT`` bytes; at most one byte more is read, should it grow meanwhile.

    Raises ``FileNotFoundError`` when nothing is at ``path`` (the callers say what that means), ``ListMmfError`` for a
    symbolic link, a file that is not a regular file or one too large, ``OSError`` when it cannot be opened."""
    _check_links(os.path.dirname(os.path.abspath(path)))
    try:
        fd = os.open(path, _SIDE_FILE_FLAGS)
    except OSError as error:
        # O_NOFOLLOW fails a link at the last name with ELOOP (EMLINK on FreeBSD).
        if hasattr(os, "O_NOFOLLOW") and error.errno in (errno.ELOOP, errno.EMLINK):
            raise ListMmfError(f"{path}: {what} is a symbolic link; this reader does not follow a link at the name of "
                               f"a side file, which another user of a shared folder may have planted") from None
        raise
    try:
        info = _require_regular(fd, path, what)
        if info.st_size > SIDE_FILE_LIMIT:
            raise ListMmfError(f"{path}: {what} is {info.st_size:,} bytes long, more than the {SIDE_FILE_LIMIT:,} "
                               f"bytes this reader reads of it")
        if _SIDE_FILE_FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        chunks, left = [], SIDE_FILE_LIMIT + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    if left <= 0:
        raise ListMmfError(f"{path}: {what} grew past the {SIDE_FILE_LIMIT:,} bytes this reader reads of it while it "
                           f"was read")
    return b"".join(chunks)


def _open_data_file(path, flags):
    """The opener of a data file for ``open``: opened without blocking, so that a FIFO planted at the name opens at
    once instead of waiting for a writer that never comes, then refused unless it is a regular file, before a byte is
    read or mapped; a regular file is put back to blocking reads. A symbolic link in the path is followed only as the
    C# library follows one (``_check_links``), and the path must still name the file opened (``_open_column_file``
    follows none at the name)."""
    for _ in range(_REPLACED_OPENS):
        has_links = _check_links(path)
        fd = os.open(path, flags | _DATA_FILE_FLAGS)
        if not has_links:
            return _checked_data_file(fd, path)
        # A link changed between the walk and the open is caught here; a replacement renamed over the path meanwhile
        # is opened again.
        try:
            _check_links(path)
            opened, now = os.fstat(fd), os.stat(path)
        except BaseException:
            os.close(fd)
            raise
        if (opened.st_dev, opened.st_ino) == (now.st_dev, now.st_ino):
            return _checked_data_file(fd, path)
        os.close(fd)
    raise ListMmfError(f"{path}: another file was put at the path each time it was opened (a symbolic link in it keeps "
                       f"changing); nothing was read")


def _open_column_file(path, flags):
    """The opener of a table's column file: as ``_open_data_file``, but never through a symbolic link at the name,
    since a table's column files are regular files in its folder (the C# library refuses such a link whoever made it;
    one planted by another user of a shared folder would show that user's file as the column)."""
    _check_links(os.path.dirname(os.path.abspath(path)))
    try:
        fd = os.open(path, flags | _DATA_FILE_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        if hasattr(os, "O_NOFOLLOW") and error.errno in (errno.ELOOP, errno.EMLINK):
            raise ListMmfError(f"{path}: it is a symbolic link, and a table's column files must be regular files in "
                               f"its folder; nothing was read through it") from None
        raise
    return _checked_data_file(fd, path)


def _checked_data_file(fd, path):
    """``fd`` if it is a regular file, put back to blocking reads; closed and refused otherwise."""
    try:
        _require_regular(fd, path, "the file")
        if _DATA_FILE_FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _load_json(raw, where, what):
    """The JSON value in the bytes ``raw`` (UTF-8; a byte order mark is skipped); ``where`` and ``what`` name them in
    errors, which say what is wrong and where without quoting the bytes: they may be any file someone planted.

    Refused as the C# library's parser refuses them: text that is not UTF-8, NaN and Infinity, nesting deeper than
    Python's recursion limit (``json`` raises RecursionError), and numbers of more digits than ``int`` converts."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ListMmfError(f"{where}: {what} is not valid JSON: it is not UTF-8 (byte {error.start:,} of "
                           f"{len(raw):,})") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise ListMmfError(f"{where}: {what} is not valid JSON: {error.msg} at line {error.lineno:,}, column "
                           f"{error.colno:,}") from None
    except RecursionError:
        raise ListMmfError(f"{where}: {what} is not valid JSON for this reader: it nests too deeply") from None
    except ValueError:
        raise ListMmfError(f"{where}: {what} is not valid JSON for this reader: it holds NaN or Infinity, or a number "
                           f"of too many digits") from None


def _refuse_constant(name):
    """``json``'s hook for NaN, Infinity and -Infinity, which JSON does not have."""
    raise ValueError(f"{name} is not JSON")


def _read_raw_header(f, path):
    """Reads the header of the open file ``f``: a tuple (version, code, count, replaced, items_offset, durable,
    session, item_size, description bytes), or None for a version 2 header whose checksum fails (a writer may be
    between a field and its seal; the caller reads again)."""
    f.seek(0)
    raw = f.read(_V2_FIXED)
    if len(raw) < HEADER_SIZE:
        raise ListMmfError(
            f"{path}: the file is {os.fstat(f.fileno()).st_size:,} bytes long, "
            f"shorter than the {HEADER_SIZE}-byte ListMmf header")
    version, code, count = struct.unpack_from("<iiq", raw)
    if version == SEALED_VERSION:
        return _read_sealed_header(f, path, raw)
    if version == VERSION_2:
        count &= ~LIVE_COUNT_GUARD
    else:
        return (VERSION if version == REPLACED_VERSION else version, code, count, version == REPLACED_VERSION,
                HEADER_SIZE, None, None, None, b"")
    if len(raw) < _V2_FIXED:
        raise ListMmfError(f"{path}: the file is too short for its version 2 header")
    state, items_offset, durable, session, _, item_size, length = struct.unpack_from("<iiqQiii", raw, 16)
    if not 4096 <= items_offset <= _HEADER_LIMIT or items_offset % 4096 or not 0 <= length <= items_offset - _V2_FIXED:
        raise ListMmfError(f"{path}: the version 2 header is damaged: it places the items at byte {items_offset:,} "
                           f"and holds a description of {length:,} bytes")
    description = f.read(length)
    # The CRC covers what never changes after creation: the counts, the state, the session and the generation are zeros.
    if not _checksum_matches(raw, description, ((8, 20), (24, 44), (56, 64))):
        return None
    if state not in (0, REPLACED_VERSION):
        raise ListMmfError(f"{path}: the version 2 header's state is {state}, neither 0 nor -1 (replaced)")
    return (VERSION_2, code, count, state == REPLACED_VERSION, items_offset, durable, session, item_size, description)


def _checksum_matches(raw, description, zeroed):
    """Whether the CRC-32 stored at byte 56 of a version 2 or sealed header is that of the header's fixed bytes, with
    the ``zeroed`` (start, end) ranges as zeros, followed by the description."""
    fixed = bytearray(raw)
    for start, end in zeroed:
        fixed[start:end] = bytes(end - start)
    return zlib.crc32(description, zlib.crc32(bytes(fixed))) == struct.unpack_from("<I", raw, 56)[0]

def _read_sealed_header(f, path, raw):
    """The raw header tuple of a sealed file, its checksum checked (a sealed file never changes, so a failure is damage)."""
    raw += f.read(_SEALED_FIXED - len(raw))
    if len(raw) < _SEALED_FIXED:
        raise ListMmfError(f"{path}: the file is too short for its sealed header")
    _, code, count, state, blocks_offset, durable, item_size, length = struct.unpack_from("<iiqiiq12xii", raw)
    count &= ~LIVE_COUNT_GUARD
    if blocks_offset < 4096 or blocks_offset % 4096 \
            or not 0 <= length <= min(blocks_offset, _HEADER_LIMIT) - _SEALED_FIXED:
        raise ListMmfError(f"{path}: the sealed header is damaged: it places the blocks at byte {blocks_offset:,} "
                           f"and holds a description of {length:,} bytes")
    description = f.read(length)
    # The state (an unseal's mark) and the checksum itself are zeros for the CRC.
    if not _checksum_matches(raw, description, ((16, 20), (56, 60))):
        raise ListMmfError(f"{path}: the sealed header's checksum does not match its contents: the header is damaged")
    if state not in (0, REPLACED_VERSION):
        raise ListMmfError(f"{path}: the sealed header's state is {state}, neither 0 nor -1 (replaced)")
    if blocks_offset != -(-(_SEALED_FIXED + length) // 4096) * 4096 or durable != count \
            or any(raw[start:start + size].strip(b"\0") for start, size in _SEALED_ZERO_RANGES):
        raise ListMmfError(f"{path}: the sealed header's fields disagree: blocks at byte {blocks_offset:,} after a "
                           f"description of {length:,} bytes, a count of {count:,} and {durable:,}, or a field that is "
                           f"always zero is not")
    return (SEALED_VERSION, code, count, state == REPLACED_VERSION, blocks_offset, count, None, item_size, description)


def _read_header(f, path, accept_replaced=True):
    """Reads and checks the header of the open file ``f``; see ``read_header``. Returns None for a file marked
    replaced unless ``accept_replaced``, which reads it as a file of its version field 0 (version 1).

    The length is read after the header, so a writer that grows the file before publishing a larger count never
    makes a healthy file look truncated. The header is read again until two reads agree (a read is not atomic with
    the writer's store of the count); beside a writer that never pauses, the smaller count of the last try is used.
    """
    for _ in range(_HEADER_READS):
        first = _read_raw_header(f, path)
        length = os.fstat(f.fileno()).st_size
        again = _read_raw_header(f, path)
        if first is not None and first == again:
            break
    if first is None or again is None:
        raise ListMmfError(f"{path}: the version 2 header's checksum does not match its contents: the header is damaged")
    version, code, replaced, items_offset, durable, session, item_size, raw_description = (
        again[0], again[1], again[3], again[4], again[5], again[6], again[7], again[8])
    count = min(first[2], again[2])
    if version == VERSION_2 and session != _BOOT_SESSION:
        count = durable

    if replaced and not accept_replaced:
        return None
    if version not in (VERSION, VERSION_2, SEALED_VERSION):
        raise ListMmfError(
            f"{path}: the header has version {version}; this reader knows versions {VERSION}, {VERSION_2} "
            f"and {SEALED_VERSION} (sealed)")
    info = TYPES.get(code)
    if info is None:
        raise ListMmfError(f"{path}: the header has data-type code {code}, which is not a known ListMmf data type")
    size = info.size
    description = None
    if version in (VERSION_2, SEALED_VERSION):
        if (size is not None and size != item_size) or item_size <= 0 or code == 1:
            raise ListMmfError(f"{path}: the version {version} header records items of {item_size} bytes for {info.name}")
        size = item_size
        description = _parse_description(raw_description, path, "the description in its header") if raw_description else None
    # A sealed file's items are compressed: the decoder checks its count against its directory instead.
    for name, value in (("count", count), ("durable count", durable if version != SEALED_VERSION else None)):
        if value is None:
            continue
        if value < 0:
            raise ListMmfError(f"{path}: the header has a negative {name} ({value:,})")
        if size is not None and version != SEALED_VERSION:
            room = max(0, length - items_offset) // size
            if value > room:
                raise ListMmfError(
                    f"{path}: the header claims {value:,} items of {size} bytes but the file is only "
                    f"{length:,} bytes long (room for {room:,}); it was truncated or the count is damaged")
    # The C# library's bound: the items' bytes, count times item size, stay far inside an Int64.
    if version == SEALED_VERSION and count > _MAX_INT64 // 2 // size:
        raise ListMmfError(f"{path}: the sealed header's count ({count:,}) of {size:,}-byte items is impossible")
    return Header(VERSION_1 if version == VERSION else version, code, info.name, size, count, length, items_offset, durable,
                  description)


def read_header(path):
    """Returns the checked ``Header`` of the ListMmf file at ``path``.

    Raises ``ListMmfError`` if the file is shorter than 16 bytes, has an unknown version or data-type code, a
    negative count, or a count whose items run past the end of the file (not checked for AnyStruct and Bit, whose
    item size the header does not give). Raises ``OSError`` if the file cannot be opened.
    """
    path = os.fspath(path)
    f, header = _open_current(path)
    with f:
        return header


def _open_current(path, opener=_open_data_file):
    """Opens the file at ``path`` and reads its header, following a replacement made meanwhile: returns (file,
    header), the file open for the caller to map or close. A file that is not a regular file (a FIFO planted at the
    name) is refused before a byte is read (``opener``: ``_open_data_file``, or ``_open_column_file``)."""
    for attempt in range(1, _REPLACED_OPENS + 1):
        f = open(path, "rb", opener=opener)
        try:
            header = _read_header(f, path, accept_replaced=attempt == _REPLACED_OPENS)
        except BaseException:
            f.close()
            raise
        if header is not None:
            return f, header
        f.close()
        time.sleep(0)


def _decode_odd_width(f, header, path):
    """Reads and decodes the odd-width (3, 5, 6 or 7-byte) little-endian integers of ``header``."""
    width, signed = header.item_size, header.code <= 17
    if header.version == SEALED_VERSION:
        data = _decode_sealed(f, header, path)
    else:
        f.seek(header.items_offset)
        data = f.read(header.count * width)
    if len(data) != header.count * width:
        raise ListMmfError(f"{path}: only {len(data):,} of the {header.count * width:,} item bytes could be read")
    if np is not None:
        raw = np.frombuffer(data, dtype=np.uint8).reshape(header.count, width)
        wide = np.zeros((header.count, 8), dtype=np.uint8)
        wide[:, :width] = raw
        if signed:
            wide[:, width:] = np.where(raw[:, -1] >= 0x80, np.uint8(0xFF), np.uint8(0))[:, None]
        return wide.view("<i8").reshape(header.count)
    return [int.from_bytes(data[i:i + width], "little", signed=signed) for i in range(0, len(data), width)]


def _align8(length):
    return (length + 7) & ~7


def _decode_sealed(f, header, path):
    """The items of a sealed file as their bytes (a bytearray of ``count * item_size``), every block decoded and its
    checksum checked, after the directory's checksum and offsets; any damage raises ``ListMmfError`` naming it."""
    f.seek(0)
    data = f.read()
    size, count = header.item_size, header.count
    if len(data) < _SEALED_FIXED:
        raise ListMmfError(f"{path}: the file is {len(data):,} bytes long, too short for its sealed header: it was cut "
                           f"short while being read")
    magic, layout, per_block, blocks, directory, directory_crc, raw_bytes = struct.unpack_from("<8siiqqI4xq", data, 64)
    if magic != b"LMSEALED" or layout != 1 or per_block != _SEALED_BLOCK_VALUES or blocks != -(-count // per_block) \
            or raw_bytes != count * size or directory % 8 or not header.items_offset <= directory <= len(data):
        raise ListMmfError(f"{path}: the sealed header is damaged: {blocks:,} blocks of {per_block:,} for {count:,} "
                           f"items, a directory at byte {directory:,} of {len(data):,}")
    firsts = _align8(blocks * size)
    if directory + firsts + 8 * (blocks + 1) != len(data):
        raise ListMmfError(f"{path}: the file is {len(data):,} bytes long, but its sealed directory at byte "
                           f"{directory:,} ends at byte {directory + firsts + 8 * (blocks + 1):,}: it was cut short or damaged")
    # Struct items are stored plain (codec 0 only), so their bytes are all in the file: a count claiming more is
    # damage, found before a buffer of count * item_size bytes is allocated for them.
    if header.code == 0 and count * size > len(data):
        raise ListMmfError(f"{path}: the sealed header claims {count:,} items of {size:,} bytes, more than the file's "
                           f"{len(data):,} bytes hold: it is damaged")
    if zlib.crc32(data[directory:]) != directory_crc:
        raise ListMmfError(f"{path}: the sealed directory's checksum does not match its bytes: the directory is damaged")
    offsets = struct.unpack_from(f"<{blocks + 1}Q", data, directory + firsts)
    if offsets[0] != header.items_offset or offsets[-1] != directory \
            or any(b < a + _SEALED_BLOCK_HEADER or b % 8 for a, b in zip(offsets, offsets[1:])):
        raise ListMmfError(f"{path}: the sealed directory's block offsets do not ascend from the blocks to the directory")
    if np is not None and blocks:
        items = _sealed_numpy(data, offsets, header, size, count, directory)
        if items is not None:
            return items
    items = _sealed_scalar(data, offsets, header, path, size, count, directory, decode=np is None or not blocks)
    if np is not None and blocks:
        raise ListMmfError(f"{path}: the numpy decoder refused the sealed file and the block-by-block decoder did not; "
                           f"report it as a bug of this reader")
    return items


def _sealed_scalar(data, offsets, header, path, size, count, directory, decode=True):
    """The items of a sealed file whose header and directory were checked, every block checked against every rule
    and decoded one by one with the standard library: the reference the numpy decoder is held to, and the source of
    the messages that name a damaged block (then without ``decode``: the blocks are only checked)."""
    blocks, per_block = len(offsets) - 1, _SEALED_BLOCK_VALUES
    items = bytearray(count * size if decode else 0)
    view = memoryview(data)
    for block in range(blocks):
        start = offsets[block]
        codec, width, values, payload, base, first, step, crc, reserved = struct.unpack_from("<BBHIqqdII", data, start)
        expected = min(per_block, count - block * per_block)
        parts, part_width = (first & 0xFFFF, (first >> 16) & 0xFF) if codec == 7 or codec in _DICTIONARY_CODECS else (0, 0)
        packed_length = _packed_length(values, width) + (
            _packed_length(parts, _PATCH_POSITION_WIDTH) + _packed_length(parts, part_width) if codec == 7 else
            _packed_length(parts, part_width) if codec in _DICTIONARY_CODECS else
            _elias_fano_extra(values, first) if codec == _ELIAS_FANO else 0)
        problem = None
        if values != expected or _SEALED_BLOCK_HEADER + _align8(payload) != offsets[block + 1] - start:
            problem = f"its header ({values:,} values, {payload:,} payload bytes) does not fit the file"
        elif codec == 0 and payload != values * size or codec != 0 and (width > 56 or payload != packed_length):
            problem = f"its header (codec {codec}, width {width}, {payload:,} payload bytes) does not fit its values"
        elif codec == 7 and (first >> 24 or parts > values or not 0 < part_width <= 56):
            problem = f"its patches ({parts:,} of {part_width} bits) do not fit its {values:,} values"
        elif codec in _DICTIONARY_CODECS and (first >> 24 or parts > values or part_width > 56):
            problem = f"its dictionary ({parts:,} entries of {part_width} bits) does not fit its {values:,} values"
        elif codec == _ELIAS_FANO and (first >> 32 or not values <= first <= 0xFFFF):
            problem = f"its bitmap ({first & 0xFFFFFFFF:,} bits) does not fit its {values:,} values"
        elif codec not in _sealed_codecs(header.code):
            problem = f"its codec {codec} does not apply to {header.type_name} items"
        elif zlib.crc32(view[start + _SEALED_BLOCK_HEADER:start + _SEALED_BLOCK_HEADER + payload],
                        zlib.crc32(view[start:start + 32])) != crc:
            problem = "its checksum does not match its bytes"
        problem = problem or _block_rule_problem(data, start + _SEALED_BLOCK_HEADER, codec, width, values, base, first,
                                                 step, reserved, header, size, data[directory + block * size:directory + (block + 1) * size])
        if problem:
            raise ListMmfError(f"{path}: block {block:,} of {blocks:,} (items from {block * per_block:,}) is damaged: {problem}")
        at, to = start + _SEALED_BLOCK_HEADER, block * per_block * size
        if not decode:
            continue
        if codec == 0:
            items[to:to + values * size] = data[at:at + values * size]
        else:
            items[to:to + values * size] = _sealed_block_stdlib(data, at, codec, width, values, base, first, step, header, size)
    return items


def _sealed_codecs(code):
    """The codecs a block of items of ``code`` may take."""
    return (0,) + _TICK_CODECS + _DECIMAL_CODECS if code in _SEALED_FLOATS else \
        (0,) + _INTEGER_CODECS + (_STEPPED, _ELIAS_FANO) if code else (0,)


def _packed_lengths(values, width):
    """``_packed_length`` of numpy arrays."""
    return (values * width + 63) // 64 * 8 + 8


def _elias_fano_extra(values, first):
    """The bytes of an Elias-Fano block's bitmap (of the header's bytes 16-19 bits, whole UInt64 words) and samples
    after its packed low bits; for ints or numpy arrays."""
    upper_bits = first & 0xFFFFFFFF
    return (upper_bits + 63) // 64 * 8 + (values - 1) // _ELIAS_FANO_SAMPLE * 2


def _elias_fano_steps(data, at, width, values, first):
    """An Elias-Fano block's (codec 12) values as steps above its base, a list, or the rule it breaks, a string: a
    set bit a value in the bitmap, the last at its length less one, each sample at its value's bit, the first value
    at the base and none below the one before, the largest's high part and low bits within 64 bits."""
    upper_bits = first & 0xFFFFFFFF
    if (upper_bits - values).bit_length() + width > 64:
        return f"its high parts of up to {upper_bits - values:,} above {width} low bits make more than 64 bits"
    words_at = at + _packed_length(values, width)
    samples_at = words_at + (upper_bits + 63) // 64 * 8
    bitmap = int.from_bytes(data[words_at:samples_at], "little")
    steps, last = [], -1
    while bitmap:
        position, i = (bitmap & -bitmap).bit_length() - 1, len(steps)
        bitmap &= bitmap - 1
        if i == values or position >= upper_bits:
            return f"its bitmap has a set bit past its {values:,} values or its {upper_bits:,} bits"
        if i and i % _ELIAS_FANO_SAMPLE == 0 and \
                struct.unpack_from("<H", data, samples_at + 2 * (i // _ELIAS_FANO_SAMPLE - 1))[0] != position:
            return f"its sample of value {i:,} is not that value's bit"
        k = ((position - i) << width) | _read_packed(data, at, width, i)
        if k if i == 0 else k < steps[-1]:
            return "its first value is not its base" if i == 0 else f"its value {i:,} is below the one before it"
        steps.append(k)
        last = position
    if len(steps) != values or last != upper_bits - 1:
        return f"its bitmap of {upper_bits:,} bits has {len(steps):,} set bits for {values:,} values, the last at {last:,}"
    return steps


def _sealed_numpy(data, offsets, header, size, count, directory):
    """The items of a sealed file whose header and directory were checked, every block held to every rule and
    decoded many blocks at a time with numpy; None where a block breaks a rule, which ``_sealed_scalar`` then names.
    The blocks' headers are read into arrays and checked together; only the checksums, and the range of a block
    whose bound from its header leaves its type's, are checked block by block."""
    blocks = len(offsets) - 1
    fmt = _SEALED_FLOATS.get(header.code, (None,))[0]
    u64 = np.uint64
    bounds = np.array(offsets, dtype=np.int64)
    starts = bounds[:-1]
    raw = np.frombuffer(data, dtype=np.uint8)
    fields = raw[starts[:, None] + np.arange(_SEALED_BLOCK_HEADER)].view(np.dtype([
        ("codec", "u1"), ("width", "u1"), ("values", "<u2"), ("payload", "<u4"), ("base", "<i8"), ("first", "<i8"),
        ("step", "<f8"), ("crc", "<u4"), ("reserved", "<u4")])).reshape(-1)
    codec, width, values, payload = (fields[name].astype(np.int64) for name in ("codec", "width", "values", "payload"))
    base, first, step = fields["base"], fields["first"], fields["step"]
    step_bits = step.view(np.int64)
    expected = np.full(blocks, _SEALED_BLOCK_VALUES, dtype=np.int64)
    expected[-1] = count - (blocks - 1) * _SEALED_BLOCK_VALUES
    plain, patched, dictionary = codec == 0, codec == 7, np.isin(codec, _DICTIONARY_CODECS)
    parts = np.where(patched | dictionary, first & 0xFFFF, 0)
    part_width = np.where(patched | dictionary, (first >> 16) & 0xFF, 0)
    patches, patch_width = np.where(patched, parts, 0), np.where(patched, part_width, 0)
    ok = (values == expected) & (_SEALED_BLOCK_HEADER + ((payload + 7) & ~7) == np.diff(bounds)) \
        & (fields["reserved"] == 0) & np.isin(codec, _sealed_codecs(header.code))
    elias_fano = codec == _ELIAS_FANO
    ok &= np.where(plain, (payload == values * size) & (width == 0) & (base == 0) & (first == 0) & (step_bits == 0),
                   (width <= 56) & (payload == _packed_lengths(values, width) + np.where(
                       patched, _packed_lengths(parts, _PATCH_POSITION_WIDTH), 0)
                       + np.where(patched | dictionary, _packed_lengths(parts, part_width), 0)
                       + np.where(elias_fano, _elias_fano_extra(values, first), 0)))
    ok &= ~elias_fano | (((first >> 32) == 0) & (first >= values) & (first <= 0xFFFF) & (step_bits >= 1))
    ok &= ~patched | (((first >> 24) == 0) & (patches >= 1) & (patches <= values) & (patch_width >= 1)
                      & (patch_width <= 56) & (width + patch_width <= 64))
    ok &= ~dictionary | (((first >> 24) == 0) & (parts >= 1) & (parts <= values) & (part_width <= 56))
    ok &= ~np.isin(codec, _INTEGER_CODECS) | (step_bits == 0)
    ok &= (codec != _STEPPED) | (step_bits >= 2)
    mantissa, exponent = np.frexp(step)
    single = fmt == "<f"
    with np.errstate(invalid="ignore"):
        ok &= ~np.isin(codec, _TICK_CODECS) | (np.isfinite(step) & (step > 0) & (mantissa == 0.5)
                                               & (((exponent >= -148) & (exponent <= 128)) if single else True))
    if fmt is not None:
        ok &= ~np.isin(codec, _DECIMAL_CODECS) | np.isin(step, sorted(_POWERS_OF_TEN[fmt]))
    if not ok.all():
        return None
    view = memoryview(data)
    for start, length, crc in zip(offsets, payload.tolist(), fields["crc"].tolist()):
        if zlib.crc32(view[start + _SEALED_BLOCK_HEADER:start + _SEALED_BLOCK_HEADER + length],
                      zlib.crc32(view[start:start + 32])) != crc:
            return None

    window = np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
    at = starts + _SEALED_BLOCK_HEADER
    masks = np.where(width >= 64, ~u64(0), (u64(1) << np.minimum(width, 63).astype(u64)) - u64(1))
    first_offsets = np.where(plain, u64(0), window[np.where(plain, 0, at)] & masks)
    steps = np.where(codec == _STEPPED, step_bits, 1).view(u64)
    if not (~np.isin(codec, (2, 4, 6)) | (first_offsets == 0)).all() or \
            not (~np.isin(codec, (1, 3, 5, _STEPPED)) | (first.view(u64) == base.view(u64) + steps * first_offsets)).all():
        return None
    highs_by_patch = _sealed_patch_arrays(window, at, codec, width, values, patches, patch_width)
    if highs_by_patch is False:
        return None
    entries = _sealed_dictionary_arrays(window, at, dictionary, width, values, parts, part_width, base)
    if entries is False:
        return None
    if not _sealed_ranges_numpy(data, header, size, fmt, at, codec, width, values, base, first, step,
                                np.where(dictionary, part_width, width + patch_width), steps):
        return None

    items = bytearray(count * size)
    typed = np.frombuffer(items, dtype=np.uint8)
    if plain.any():
        for block in np.flatnonzero(plain).tolist():
            to, length = block * _SEALED_BLOCK_VALUES * size, int(values[block]) * size
            typed[to:to + length] = raw[at[block]:at[block] + length]
    if elias_fano.any() and not _sealed_elias_fano_numpy(raw, window, np.flatnonzero(elias_fano), at, width, values, base, first,
                                                         step_bits, items, header, size, fmt):
        return None
    packed = np.flatnonzero(~plain & ~elias_fano)
    if packed.size and not _sealed_blocks_numpy(data, packed, at[packed], codec[packed], width[packed], values[packed],
                                                base[packed].view(u64), first[packed].view(u64), step[packed], items, header,
                                                size, entries):
        return None
    if highs_by_patch is not None:
        _sealed_patches_numpy(items, size, highs_by_patch, window, at, width, base)
    firsts = raw[directory:directory + blocks * size].reshape(blocks, size)
    stored = typed.reshape(-1, size)[np.arange(blocks) * _SEALED_BLOCK_VALUES]
    return items if (stored == firsts).all() else None


def _offset_binary_range(header, size, fmt):
    """The integer domain's range of the file's items (low, high), the bit that makes a value offset binary (a signed
    value's bits with the sign flipped order as unsigned, so one comparison serves both), and the range in it."""
    u64 = np.uint64
    if fmt is not None:
        low, high = -_SEALED_INTEGER_LIMITS[fmt], _SEALED_INTEGER_LIMITS[fmt]
    elif header.code in _SEALED_SIGNED:
        low, high = -(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1
    else:
        low, high = 0, (1 << (8 * size)) - 1
    flip = u64(1 << 63) if fmt is not None or header.code in _SEALED_SIGNED else u64(0)
    return low, high, flip, u64((low & _MASK64) ^ int(flip)), u64((high & _MASK64) ^ int(flip))


def _sealed_elias_fano_numpy(raw, window, blocks, at, width, values, base, first, step_bits, items, header, size, fmt):
    """Checks the Elias-Fano blocks numbered ``blocks`` (codec 12) by ``_elias_fano_steps``'s rules and decodes them
    into ``items``, many at a time: blocks of one length and low width as rows of 2-D arrays, their bitmaps unpacked
    to the longest's words (bits past a block's own words masked off), each row's set bits' positions less their indexes
    the high parts above the values' low bits. False where a block breaks a rule."""
    u64 = np.uint64
    low, high, flip, low_u, high_u = _offset_binary_range(header, size, fmt)
    typed = _item_rows(items, size)
    shape = values[blocks] * 64 + width[blocks]
    for key in np.unique(shape).tolist():
        m, w = key >> 6, key & 63
        bit = np.arange(m, dtype=np.int64) * w
        offsets, shifts, mask = bit >> 3, (bit & 7).astype(u64), u64((1 << w) - 1)
        group = blocks[shape == key]
        for chunk in range(0, len(group), _SEALED_CHUNK_BLOCKS):
            same = group[chunk:chunk + _SEALED_CHUNK_BLOCKS]
            upper_bits = first[same] & 0xFFFFFFFF
            words_at = at[same] + _packed_lengths(m, w)
            lengths = (upper_bits + 63) // 64 * 8
            spread = np.minimum(words_at[:, None] + np.arange(int(lengths.max())), len(raw) - 1)
            words = raw[spread]
            # Bytes past a block's own words are the next bytes of the file; its own bits past its length must be zero.
            words[np.arange(words.shape[1]) >= lengths[:, None]] = 0
            bits = np.unpackbits(words, axis=1, bitorder="little")
            # A boolean view's nonzero is numpy's fast one; with m set bits a row, the k-th is row k // m's.
            ones = np.flatnonzero(bits.view(bool))
            if len(ones) != m * len(same) or not (np.count_nonzero(bits, axis=1) == m).all():
                return False
            position = ones.reshape(len(same), m)
            position -= (np.arange(len(same)) * bits.shape[1])[:, None]
            sampled = position[:, _ELIAS_FANO_SAMPLE::_ELIAS_FANO_SAMPLE]
            sample_at = (words_at + lengths)[:, None] + 2 * np.arange(sampled.shape[1])
            samples = raw[sample_at].astype(np.int64) | (raw[sample_at + 1].astype(np.int64) << 8)
            highest = upper_bits - m
            if not (position[:, -1] == upper_bits - 1).all() or not (samples == sampled).all() or \
                    not (w <= 48 or (highest < (1 << (64 - w))).all()):
                return False
            lows = window[at[same][:, None] + offsets]
            lows >>= shifts
            lows &= mask
            # Each bit's position less its index is the value's high part, above its low bits: in place.
            position -= np.arange(m)
            steps = position.view(u64)
            steps <<= u64(w)
            steps |= lows
            if (steps[:, 0] != 0).any() or (steps[:, 1:] < steps[:, :-1]).any():
                return False
            # In range: the base, and the largest value's span above it (the step times the last value's steps).
            step, largest = step_bits[same].view(u64), steps[:, -1]
            base_u = base[same].view(u64) ^ flip
            with np.errstate(over="ignore"):
                overflows = (largest != 0) & (step > ~u64(0) // np.maximum(largest, u64(1)))
                spans = step * largest
                if not ((base_u >= low_u) & (base_u <= high_u) & ~overflows & ((high_u - base_u) >= spans)).all():
                    return False
                steps *= step[:, None]
                steps += base[same].view(u64)[:, None]
            _store_blocks(typed, same, m, steps, size)
    return True


def _item_rows(items, size):
    """``items`` as a column of rows a decoder stores into: uint8/16/32/64 for items of 1, 2, 4 or 8 bytes, which take
    the low bytes of each value by a cast; a row of bytes for the odd widths, which take them by a view."""
    return np.frombuffer(items, dtype=f"<u{size}").reshape(-1, 1) if size in (1, 2, 4, 8) else \
        np.frombuffer(items, dtype=np.uint8).reshape(-1, size)


def _store_blocks(typed, blocks, m, domain, size):
    """Stores ``domain``, the ``m`` values of each of ``blocks`` as rows of a 2-D array (uint64, or the floats of a
    float file), into ``typed`` (``_item_rows``): one slice where the blocks follow one another."""
    decoded = domain.reshape(-1, 1).view(np.uint8)[:, :size] if typed.dtype == np.uint8 else domain.reshape(-1, 1)
    if blocks[-1] - blocks[0] == len(blocks) - 1:
        first_row = int(blocks[0]) * _SEALED_BLOCK_VALUES
        typed[first_row:first_row + len(decoded)] = decoded
    else:
        typed[(blocks[:, None] * _SEALED_BLOCK_VALUES + np.arange(m)).reshape(-1)] = decoded


def _sealed_patch_arrays(window, at, codec, width, values, patches, patch_width):
    """The patches of every patched block, read together: (block, position, high bits) arrays; None where there are
    no patched blocks, False where a block's positions do not ascend strictly below its values."""
    u64 = np.uint64
    patched = np.flatnonzero(codec == 7)
    if not patched.size:
        return None
    counts = patches[patched]
    block = np.repeat(patched, counts)
    index = np.arange(counts.sum(), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    positions_at = at[block] + _packed_lengths(values[block], width[block])
    bit = index * _PATCH_POSITION_WIDTH
    positions = ((window[positions_at + (bit >> 3)] >> (bit & 7).astype(u64)) & u64(0x3FF)).astype(np.int64)
    if not (positions < values[block]).all() or not ((block[1:] != block[:-1]) | (positions[1:] > positions[:-1])).all():
        return False
    highs_at = positions_at + _packed_lengths(patches[block], _PATCH_POSITION_WIDTH)
    high_width = patch_width[block]
    bit = index * high_width
    highs = (window[highs_at + (bit >> 3)] >> (bit & 7).astype(u64)) & ((u64(1) << high_width.astype(u64)) - u64(1))
    return block, positions, highs


def _sealed_dictionary_arrays(window, at, dictionary, width, values, entries, entry_width, base):
    """The entries of every dictionary block (codecs 8-10), read together: (where each block's entries start in the
    second array, -1 for a block of another codec; every entry as a value, base added, as uint64); None where there are
    no dictionary blocks, False where a dictionary's entries do not ascend strictly from its base."""
    u64 = np.uint64
    blocks = np.flatnonzero(dictionary)
    if not blocks.size:
        return None
    counts = entries[blocks]
    block = np.repeat(blocks, counts)
    starts = np.cumsum(counts) - counts
    index = np.arange(counts.sum(), dtype=np.int64) - np.repeat(starts, counts)
    entries_at = at[block] + _packed_lengths(values[block], width[block])
    bits = entry_width[block]
    bit = index * bits
    offsets = (window[entries_at + (bit >> 3)] >> (bit & 7).astype(u64)) & ((u64(1) << bits.astype(u64)) - u64(1))
    if (offsets[index == 0] != 0).any() or not ((index[1:] == 0) | (offsets[1:] > offsets[:-1])).all():
        return False
    where = np.full(len(at), -1, dtype=np.int64)
    where[blocks] = starts
    return where, base[block].view(u64) + offsets


def _sealed_ranges_numpy(data, header, size, fmt, at, codec, width, values, base, first, step, frame_width, steps):
    """Whether every frame (codecs 1, 3, 5, 7, 11 and the dictionaries, whose offsets from their base have
    ``frame_width`` bits, in ``steps``) and every tick or decimal block keeps its values in range, as
    ``_range_problem`` says: a bound from the headers, together, decides most blocks; each block it leaves out is
    read by ``_block_rule_problem``."""
    u64 = np.uint64
    low, high, flip, low_u, high_u = _offset_binary_range(header, size, fmt)
    frames = np.isin(codec, (1, 3, 5, 7, _STEPPED) + _DICTIONARY_CODECS)
    total = frame_width
    spans = np.where(total >= 64, ~u64(0), (u64(1) << np.minimum(total, 63).astype(u64)) - u64(1))
    # A stepped frame's span is exact in uint64 while its bits and its step's stay below 64; the others are read.
    exact = (total + np.floor(np.log2(np.maximum(steps, u64(1)).astype(np.float64))).astype(np.int64) + 1) < 64
    spans = np.where(steps == 1, spans, np.where(exact, spans * steps, ~u64(0)))
    inexact = (steps != 1) & ~exact
    base_u = base.view(u64) ^ flip
    fits = (base_u >= low_u) & (base_u <= high_u) & ((high_u - base_u) >= spans) & ~inexact
    deltas = np.isin(codec, (4, 6))
    if deltas.any():
        # Exact in binary64 while every term stays below 2^42; other delta blocks are read one by one.
        small = (np.abs(first) < 2 ** 42) & (np.abs(base) < 2 ** 42) & (width <= 40)
        steps = (values - 1).astype(np.float64)
        widest = base.astype(np.float64) + np.exp2(width.astype(np.float64)) - 1
        lowest = first.astype(np.float64) + steps * np.minimum(base.astype(np.float64), 0)
        highest = first.astype(np.float64) + steps * np.maximum(widest, 0)
        fits = np.where(deltas, small & (lowest >= low) & (highest <= high), fits)
    ticks = np.isin(codec, _TICK_CODECS)
    if ticks.any():
        largest = np.where(deltas, np.maximum(np.abs(lowest), np.abs(highest)) if deltas.any() else 0,
                           np.maximum(np.abs(base.astype(np.float64)), np.abs(base.astype(np.float64) + spans.astype(np.float64))))
        with np.errstate(over="ignore", invalid="ignore"):
            product = (largest.astype(np.float32) * step.astype(np.float32)) if fmt == "<f" else largest * step
        fits &= ~ticks | np.isfinite(product)
    checked = frames | deltas
    for block in np.flatnonzero(checked & ~fits).tolist():
        start = int(at[block])
        codec_, width_, values_, _, base_, first_, step_ = struct.unpack_from("<BBHIqqd", data, start - _SEALED_BLOCK_HEADER)
        step_ = _integer_step(step_) if codec_ == _STEPPED else step_
        parts = _patches(functools.partial(_read_packed, data), start, width_, values_, first_) if codec_ == 7 else \
            _dictionary_entries(data, start, width_, values_, first_) if codec_ in _DICTIONARY_CODECS else []
        if _range_problem(data, start, codec_, width_, values_, base_, first_, step_, header, size, fmt, parts):
            return False
    return True


_PATCH_POSITION_WIDTH = 10
"""The bits of a patch's position in its block (codec 7)."""


def _read_packed(data, start, bits, index):
    """Packed integer ``index`` of ``bits`` bits at byte ``start`` of ``data``."""
    bit = index * bits
    return (int.from_bytes(data[start + (bit >> 3):start + (bit >> 3) + 8], "little") >> (bit & 7)) & ((1 << bits) - 1)


def _block_rule_problem(data, at, codec, width, values, base, first, step, reserved, header, size, directory_item):
    """What a block whose checksum matched breaks of docs/file-format.md's rules ("What a reader checks"), or None:
    the rules the C# library holds every block to, so that both readers refuse the same files and give the same items."""
    fmt = _SEALED_FLOATS.get(header.code, (None,))[0]
    step_bits = struct.unpack("<q", struct.pack("<d", step))[0]
    if reserved:
        return "its header's bytes 36-39 are not zero"
    if codec == 0:
        if width or base or first or step_bits:
            return "a plain block's width, base, first value and step are not all zero"
        return None if data[at:at + size] == directory_item else "the directory's first item for it is not the block's first item"
    if codec in _INTEGER_CODECS and step_bits:
        return "an integer block's step is not zero"
    if codec == _STEPPED:
        if step_bits < 2:
            return f"its step {step_bits:,} is not an integer from 2"
        step = step_bits
    if codec == _ELIAS_FANO:
        if step_bits < 1:
            return f"its step {step_bits:,} is not an integer from 1"
        step = step_bits
    if codec in _TICK_CODECS:
        exponent = math.frexp(step)[1] - 1 if math.isfinite(step) and step > 0 else None
        if exponent is None or math.ldexp(1.0, exponent) != step or fmt == "<f" and not -149 <= exponent <= 127:
            return f"its step {step!r} is not a power of two{' that a Single holds' if fmt == '<f' else ''}"
    if codec in _DECIMAL_CODECS and step not in _POWERS_OF_TEN[fmt]:
        return f"its step {step!r} is not a power of ten from 10 to {'10^10 (for Single)' if fmt == '<f' else '10^22'}"
    u0 = _read_packed(data, at, width, 0)
    if codec in (1, 3, 5) and first != _signed64(base + u0):
        return f"its first value ({first:,}) is not its base plus its first offset ({_signed64(base + u0):,})"
    if codec == _STEPPED and first != _signed64(base + step * u0):
        return f"its first value ({first:,}) is not its base plus its first offset's steps ({_signed64(base + step * u0):,})"
    if codec in (2, 4, 6) and u0:
        return "its first offset is not zero, as a delta block's must be"
    patches = []
    if codec == _ELIAS_FANO:
        patches = _elias_fano_steps(data, at, width, values, first)
        if isinstance(patches, str):
            return patches
    if codec in _DICTIONARY_CODECS:
        patches = _dictionary_entries(data, at, width, values, first)
        if not patches or patches[0]:
            return "its dictionary has no entries" if not patches else "its dictionary's first entry is not its base"
        for entry in range(1, len(patches)):
            if patches[entry] <= patches[entry - 1]:
                return f"its dictionary's entry {entry:,} is not above the one before it"
        for i in range(values):
            index = _read_packed(data, at, width, i)
            if index >= len(patches):
                return f"its value {i:,} names entry {index:,} of a dictionary of {len(patches):,}"
    if codec == 7:
        count, patch_width, positions, highs = _patch_layout(at, width, values, first)
        patches = [(_read_packed(data, positions, _PATCH_POSITION_WIDTH, j), _read_packed(data, highs, patch_width, j))
                   for j in range(count)]
        if not count or width + patch_width > 64:
            return f"its {count:,} patches of {patch_width} bits over {width} bits are not a patched block's"
        if any(b <= a for (a, _), (b, _) in zip(patches, patches[1:])) or patches[-1][0] >= values:
            return "its patches' positions do not ascend within the block"
    if codec != 2:
        problem = _range_problem(data, at, codec, width, values, base, first, step, header, size, fmt, patches)
        if problem:
            return problem
    return None if _first_item(data, at, codec, width, base, first, step, size, fmt, patches) == directory_item \
        else "the directory's first item for it is not the block's first item"


def _signed64(value):
    value &= _MASK64
    return value - (1 << 64) if value >> 63 else value


def _range_problem(data, at, codec, width, values, base, first, step, header, size, fmt, patches):
    """A frame's base and values lie in the item type's range without wrapping, a tick or decimal block's integers
    below 2^53 (2^24 for Single) with finite products: a bound from the header, else every value read (``patches``:
    a patched block's (position, high bits), a dictionary's entries, ascending from 0, or an Elias-Fano block's steps)."""
    if fmt is not None:
        low_limit, high_limit = -_SEALED_INTEGER_LIMITS[fmt], _SEALED_INTEGER_LIMITS[fmt]
    elif header.code in _SEALED_SIGNED:
        low_limit, high_limit = -(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1
    else:
        low_limit, high_limit, base = 0, (1 << (8 * size)) - 1, base & _MASK64
    deltas = codec in (4, 6)
    if deltas:
        widest = base + (1 << width) - 1
        bound = (first + (values - 1) * min(base, 0), first + (values - 1) * max(widest, 0))
    elif codec in _DICTIONARY_CODECS:
        bound = (base, base + (1 << ((first >> 16) & 0xFF)) - 1)
    elif codec == _STEPPED:
        bound = (base, base + step * ((1 << width) - 1))
    elif codec == _ELIAS_FANO:
        bound = (base, base + step * patches[-1])
    else:
        bound = (base, base + (1 << (width + ((first >> 16) & 0xFF if codec == 7 else 0))) - 1)

    def fits(low, high):
        if not (low_limit <= low and high <= high_limit):
            return False
        if codec not in _TICK_CODECS:
            return True
        largest = float(max(abs(low), abs(high)))
        product = largest * step if fmt == "<d" else struct.unpack("<f", struct.pack("<f", largest))[0] * _single(step)
        return math.isfinite(product) and (fmt == "<d" or abs(product) <= _MAX_SINGLE)

    if fits(*bound):
        return None
    highs = dict(patches) if codec == 7 else {}
    value = first
    low = high = first if deltas else base
    if codec in _DICTIONARY_CODECS:
        high = base + patches[-1]
    elif codec == _ELIAS_FANO:
        high = bound[1]
    for i in range(1 if deltas else 0, 0 if codec in _DICTIONARY_CODECS or codec == _ELIAS_FANO else values):
        offset = _read_packed(data, at, width, i) | (highs.get(i, 0) << width)
        value = value + base + offset if deltas else base + offset * (step if codec == _STEPPED else 1)
        low, high = min(low, value), max(high, value)
    if fits(low, high):
        return None
    return f"its values run from {low:,} to {high:,} in the integer domain, outside {low_limit:,} to {high_limit:,}" + \
        (f" or beyond a finite product with {step!r}" if codec in _TICK_CODECS else "")


_MAX_SINGLE = 3.4028234663852886e38
"""The largest finite binary32."""


def _single(value):
    """``value`` rounded to binary32 (an infinity beyond it)."""
    return struct.unpack("<f", _pack_float("<f", value))[0]


def _first_item(data, at, codec, width, base, first, step, size, fmt, patches):
    """The block's first item as bytes, as the block gives it (``patches``: a patched block's (position, high bits),
    or a dictionary's entries)."""
    if codec in (2, 4, 6):
        ticks = first
    elif codec in _DICTIONARY_CODECS:
        ticks = _signed64(base + patches[_read_packed(data, at, width, 0)])
    elif codec == _STEPPED:
        ticks = _signed64(base + step * _read_packed(data, at, width, 0))
    elif codec == _ELIAS_FANO:
        ticks = _signed64(base)
    else:
        ticks = _signed64(base + (_read_packed(data, at, width, 0) | (dict(patches).get(0, 0) << width)))
    if fmt is None:
        return (ticks & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    return _pack_float(fmt, ticks * step if codec in _TICK_CODECS else _quotient(ticks, step))


def _integer_step(step):
    """A stepped frame's (codec 11) step: the header's step field, stored as an Int64, read as the float it is not."""
    return struct.unpack("<q", struct.pack("<d", step))[0]


def _dictionary_entries(data, at, width, values, first):
    """A dictionary block's (codecs 8-10) entries, offsets from its base: the header's bytes 16-17 their count, byte
    18 their bits, packed after the ``values`` indexes of ``width`` bits at ``at``."""
    entries, entry_width = first & 0xFFFF, (first >> 16) & 0xFF
    start = at + _packed_length(values, width)
    return [_read_packed(data, start, entry_width, j) for j in range(entries)]


def _packed_length(values, width):
    """The bytes of ``values`` packed integers of ``width`` bits, with their 8 bytes of padding."""
    return _align8(-(-values * width // 8)) + 8


def _patch_layout(at, width, values, first):
    """Where a patched block's (codec 7) patches are: their count and the bits of their high parts (the header's
    bytes 16-18), and where their packed positions and high parts start, after the ``values`` low parts at ``at``."""
    patches, patch_width = first & 0xFFFF, (first >> 16) & 0xFF
    positions = at + _packed_length(values, width)
    return patches, patch_width, positions, positions + _packed_length(patches, _PATCH_POSITION_WIDTH)


def _patches(read, at, width, values, first):
    """A patched block's patches as (position, high bits) pairs, each packed integer read by ``read(start, width,
    index)``; positions past the block are left out, as the library's reader leaves them (``verify`` finds them)."""
    patches, patch_width, positions, highs = _patch_layout(at, width, values, first)
    pairs = ((read(positions, _PATCH_POSITION_WIDTH, j), read(highs, patch_width, j)) for j in range(patches))
    return [(position, high) for position, high in pairs if position < values]


def _sealed_patches_numpy(items, size, patch_arrays, window, at, width, base):
    """Writes the wide values of the patched blocks (codec 7), as ``_sealed_patch_arrays`` read them, over the low
    parts that ``_sealed_blocks_numpy`` decoded there: base plus the low bits with the patch's high bits above them."""
    u64 = np.uint64
    block, positions, highs = patch_arrays
    low_width = width[block].astype(u64)
    bit = positions * width[block]
    lows = (window[at[block] + (bit >> 3)] >> (bit & 7).astype(u64)) & ((u64(1) << low_width) - u64(1))
    wide = base[block].view(u64) + (lows | (highs << low_width))
    rows = block * _SEALED_BLOCK_VALUES + positions
    typed = np.frombuffer(items, dtype=f"<u{size}") if size in (1, 2, 4, 8) else \
        np.frombuffer(items, dtype=np.uint8).reshape(-1, size)
    if typed.ndim == 1:
        typed[rows] = wide.astype(typed.dtype)
    else:
        typed[rows] = wide.reshape(-1, 1).view(np.uint8)[:, :size]


_SEALED_CHUNK_BLOCKS = 1024
"""How many packed blocks the numpy decoder decodes in one pass (a million values: a few arrays of 8 MB)."""


def _sealed_blocks_numpy(data, blocks, at, codec, width, values, base, first, step, items, header, size, entries):
    """Decodes the packed blocks numbered ``blocks`` (their fields in the arrays after it, ``base`` and ``first`` as
    uint64) into ``items``, many blocks in one pass of numpy operations: blocks of one length and width as rows of a
    2-D array, each value one unaligned 8-byte load from a strided view of the file at a byte offset and shift that
    the whole group shares, masked, plus its block's base; the delta codecs' running sums a cumulative sum along the
    rows; a dictionary's values its ``entries`` (``_sealed_dictionary_arrays``) taken by index. False where an index
    names no entry."""
    u64 = np.uint64
    window = np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
    floats = np.dtype(_SEALED_FLOATS[header.code][1]) if header.code in _SEALED_FLOATS else None
    typed = _item_rows(items, size)
    shape = values * 64 + width
    for key in np.unique(shape).tolist():
        m, w = key >> 6, key & 63
        bit = np.arange(m, dtype=np.int64) * w
        offsets, shifts, mask = bit >> 3, (bit & 7).astype(u64), u64((1 << w) - 1)
        group = np.flatnonzero(shape == key)
        for chunk in range(0, len(group), _SEALED_CHUNK_BLOCKS):
            same = group[chunk:chunk + _SEALED_CHUNK_BLOCKS]
            domain = window[at[same][:, None] + offsets]
            domain >>= shifts
            domain &= mask
            # A dictionary's values are its entries by index; a stepped frame's offsets are in steps.
            dictionary = np.isin(codec[same], _DICTIONARY_CODECS)
            indexes = domain[dictionary] if dictionary.any() else None
            stepped = codec[same] == _STEPPED
            if stepped.any():
                domain[stepped] *= step[same][stepped].view(u64)[:, None]
            domain += base[same][:, None]
            if indexes is not None:
                if (indexes >= (first[same][dictionary] & u64(0xFFFF))[:, None]).any():
                    return False
                domain[dictionary] = entries[1][entries[0][blocks[same][dictionary]][:, None] + indexes.astype(np.int64)]
            deltas = (codec[same] == 2) | (codec[same] == 4) | (codec[same] == 6)
            if deltas.any():
                domain[deltas, 0] = first[same][deltas]
                domain[deltas] = np.cumsum(domain[deltas], axis=1, dtype=u64)
            if floats is not None:
                # Ticks are multiplied by their power of two, decimals divided by their power of ten: each rounded
                # once, and each block only by its own rule (a tick block's tiny step would overflow a quotient).
                scaled, by = domain.view(np.int64).astype(floats), step[same][:, None].astype(floats)
                quotient = np.isin(codec[same], _DECIMAL_CODECS)
                scaled[~quotient] *= by[~quotient]
                scaled[quotient] /= by[quotient]
                domain = scaled.view(typed.dtype) if typed.dtype != np.uint8 else scaled
            _store_blocks(typed, blocks[same], m, domain, size)
    return True


def _sealed_block_stdlib(data, at, codec, width, values, base, first, step, header, size):
    """One packed block's items as bytes, decoded value by value with the standard library."""
    read = functools.partial(_read_packed, data)
    highs = dict(_patches(read, at, width, values, first)) if codec == 7 else {}
    entries = _dictionary_entries(data, at, width, values, first) if codec in _DICTIONARY_CODECS else \
        [_integer_step(step) * k for k in _elias_fano_steps(data, at, width, values, first)] if codec == _ELIAS_FANO else None
    out = bytearray()
    value = first
    for i in range(values):
        u = read(at, width, i) | (highs.get(i, 0) << width)
        if codec == _ELIAS_FANO:
            value = (base + entries[i]) & _MASK64
        elif entries is not None:
            value = (base + entries[u]) & _MASK64
        elif codec == _STEPPED:
            value = (base + _integer_step(step) * u) & _MASK64
        elif codec in (1, 3, 5, 7):
            value = (base + u) & _MASK64
        else:
            value = first & _MASK64 if i == 0 else (value + base + u) & _MASK64
        if header.code in _SEALED_FLOATS:
            ticks = value - (1 << 64) if value >> 63 else value
            # A product by a power of two is exact in binary64 (|ticks| < 2^53), so packing as binary32 rounds once. A
            # quotient is rounded to binary64, then to binary32: with 53 bits against 2 * 24 + 2 that gives the
            # binary32 quotient the format says.
            out += _pack_float(_SEALED_FLOATS[header.code][0], ticks * step if codec in _TICK_CODECS else _quotient(ticks, step))
        else:
            out += (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    return out


def _quotient(ticks, step):
    """``ticks / step`` as IEEE 754 divides, as numpy and the C# library do: a step of zero, which no writer stores
    but a damaged or planted block may, gives an infinity (NaN for 0 / 0) instead of ZeroDivisionError."""
    if step == 0:
        return math.nan if ticks == 0 else math.copysign(math.inf, ticks) * math.copysign(1.0, step)
    return ticks / step


def _pack_float(fmt, value):
    """``value`` packed as ``fmt`` ('<f' or '<d'); a value beyond binary32 becomes an infinity, as numpy's and the C#
    library's conversion makes it, where ``struct`` raises OverflowError."""
    try:
        return struct.pack(fmt, value)
    except OverflowError:
        return struct.pack(fmt, math.copysign(math.inf, value))


def read_description(path):
    """The description of the ListMmf file at ``path`` as a dict, or None without one: from the header of a version 2
    file, from the file beside a version 1 file (``FILE.listmmf.json``).

    Its keys: ``itemType`` and ``itemSize``; ``fields``, a list of dicts with ``name``, ``offset``, ``size`` and
    ``type``, for struct items; ``order`` and ``timesAreUtc`` for a sorted list or time series.
    """
    path = os.fspath(path)
    if os.path.exists(path):
        header = read_header(path)
        if header.version in (VERSION_2, SEALED_VERSION):
            return header.description
    try:
        raw = _read_side_file(path + DESCRIPTION_SUFFIX, "the description")
    except FileNotFoundError:
        return None
    return _parse_description(raw, path + DESCRIPTION_SUFFIX, "the description")


_ORDERS = ("None", "Ascending", "AscendingOrEqual")
"""The orders a manifest or a description records (TimeSeriesOrder)."""


def _is_int32(value):
    """Whether a JSON value is a whole number that fits an Int32, as the C# library reads a size or an offset (a
    JSON true is not 1, nor 1.0 a whole number)."""
    return type(value) is int and -2**31 <= value < 2**31


def _parse_description(raw, where, what):
    """A description's JSON as a dict; ``where`` and ``what`` name it in the error. Checked as the C# library checks
    it, so that what the reader builds from it (a numpy dtype, a mapping's size) never meets a value of the wrong kind:
    ``itemType`` a string; ``itemSize`` a positive Int32; ``fields``, when present, a list of objects each with a
    string ``name`` and ``type`` and an Int32 ``offset`` and ``size`` that lie inside the item; ``order`` one of the
    orders and ``timesAreUtc`` a boolean, when present."""
    description = _load_json(raw, where, what)
    problem = _description_problem(description)
    if problem:
        raise ListMmfError(f"{where}: {what} is not a ListMmf description of version 1: {problem}")
    return description


def _description_problem(description):
    """What is wrong with a parsed description, or None; see ``_parse_description``."""
    if not isinstance(description, dict) or description.get("format") != "listmmf-description":
        return '"format" is not "listmmf-description"'
    if not _is_int32(description.get("version")) or description["version"] != 1:
        return '"version" is missing or not 1'
    if not isinstance(description.get("itemType"), str):
        return '"itemType" is missing or not a string'
    size = description.get("itemSize")
    if not _is_int32(size) or size <= 0:
        return '"itemSize" is missing or not a whole number above 0'
    fields = description.get("fields", [])
    if not isinstance(fields, list):
        return '"fields" is not a list'
    for index, field in enumerate(fields):
        if not isinstance(field, dict):
            return f"field {index:,} is not an object"
        for key, check, kind in (("name", _is_str, "a string"), ("type", _is_str, "a string"),
                                 ("offset", _is_int32, "a whole number"), ("size", _is_int32, "a whole number")):
            if not check(field.get(key)):
                return f'field {index:,}: "{key}" is missing or not {kind}'
        if field["offset"] < 0 or field["size"] <= 0 or field["offset"] + field["size"] > size:
            return (f"an item of {size:,} bytes cannot hold field {index:,} ({field['size']:,} bytes at offset "
                    f"{field['offset']:,})")
    if "order" in description and description["order"] not in _ORDERS:
        return '"order" is not "None", "Ascending" or "AscendingOrEqual"'
    if "timesAreUtc" in description and not isinstance(description["timesAreUtc"], bool):
        return '"timesAreUtc" is not true or false'
    return None


def _is_str(value):
    return isinstance(value, str)


_ARRAY_FIELD = re.compile(r"(.+)\[([0-9]{1,9})\]", re.DOTALL)
"""A field type ``T[n]``: n elements of T."""


def _field_dtype(field):
    """The numpy dtype of one field of a checked description; see ``_FIELD_DTYPES``. A ``T[n]`` whose elements do
    not divide the field's size evenly is its bytes."""
    kind, size = field["type"], field["size"]
    match = _ARRAY_FIELD.fullmatch(kind)
    if match is not None:
        count = int(match.group(2))
        if count == 0 or size % count:
            return np.dtype(f"V{size}")
        base = np.dtype(_FIELD_DTYPES.get(match.group(1), f"V{size // count}"))
        return np.dtype((base, (count,))) if base.itemsize * count == size else np.dtype(f"V{size}")
    dtype = np.dtype(_FIELD_DTYPES.get(kind, f"V{size}"))
    return dtype if dtype.itemsize == size else np.dtype(f"V{size}")


def struct_dtype(description):
    """The numpy structured dtype of a description's items: each field at its offset, the item its full size."""
    fields = description.get("fields") or []
    return np.dtype({
        "names": [field["name"] for field in fields],
        "formats": [_field_dtype(field) for field in fields],
        "offsets": [field["offset"] for field in fields],
        "itemsize": description["itemSize"],
    })


def _open_structs(f, header, path):
    """A struct file's items as a numpy memmap of the dtype its description records; the description must give the
    item size a version 2 or sealed header records, and fields numpy takes."""
    description = header.description if header.version != VERSION_1 else read_description(path)
    if description is None or np is None:
        return None
    size = description["itemSize"]
    if header.version != VERSION_1 and size != header.item_size:
        raise ListMmfError(f"{path}: the description records items of {size:,} bytes, the header {header.item_size:,}; "
                           f"the file is damaged")
    names = [field["name"] for field in description.get("fields", [])]
    if len(set(names)) != len(names):
        raise ListMmfError(f"{path}: the description names two fields alike; numpy needs a field's name to be its own")
    try:
        dtype = struct_dtype(description)
    except (ValueError, TypeError) as error:
        raise ListMmfError(f"{path}: the description's fields make no numpy dtype ({type(error).__name__})") from None
    if header.version == SEALED_VERSION:
        return np.frombuffer(_decode_sealed(f, header, path), dtype=dtype)
    if header.items_offset + header.count * size > header.file_length:
        raise ListMmfError(f"{path}: count {header.count:,} of {size}-byte items runs past the end of the file "
                           f"({header.file_length:,} bytes); the file is damaged")
    return _memmap(f, dtype, header, path)


def _memmap(f, dtype, header, path):
    """A read-only ``numpy.memmap`` of the header's ``count`` items of ``dtype`` in the open file ``f``. No items are
    an empty read-only array viewed as a memmap: mmap refuses to map nothing at an offset at the file's end (a version
    2 file of no capacity past its header). A file that shrank below the items after its header was read (another
    user truncating it) raises ``ListMmfError``, not numpy's ValueError."""
    if header.count == 0:
        items = np.empty(0, dtype=dtype)
        items.flags.writeable = False
        return items.view(np.memmap)
    try:
        return np.memmap(f, dtype=dtype, mode="r", offset=header.items_offset, shape=(header.count,))
    except ValueError:
        raise ListMmfError(f"{path}: the file is shorter than the {header.count:,} items its header counts: it was cut "
                           f"short while being read") from None


def _open(path, opener=_open_data_file):
    """Returns (header, items) of the file at ``path`` from one header snapshot; items is None for Bit files and
    for struct files without a description or without numpy. ``opener`` as for ``_open_current``."""
    path = os.fspath(path)
    f, header = _open_current(path, opener)
    with f:
        info = TYPES[header.code]
        if header.code == 0:
            return header, _open_structs(f, header, path)
        if header.code in _UNSUPPORTED:
            return header, None
        if info.fmt is None:
            return header, _decode_odd_width(f, header, path)
        if header.version == SEALED_VERSION:
            items = _decode_sealed(f, header, path)
            return header, np.frombuffer(items, dtype=info.dtype) if np is not None else memoryview(items).cast(info.fmt)
        if np is not None:
            return header, _memmap(f, info.dtype, header, path)
        if sys.byteorder != "little" or struct.calcsize(info.fmt) != info.size:
            raise ListMmfError(
                f"{path}: without numpy this reader needs a little-endian host whose '{info.fmt}' items are "
                f"{info.size} bytes; this one is {sys.byteorder}-endian with {struct.calcsize(info.fmt)}-byte items")
        if header.count == 0:
            # As ``_memmap``: no items map nothing (a version 2 file may end before its items offset, as C# reads it).
            return header, memoryview(b"").cast(info.fmt)
        try:
            mapped = mmap.mmap(f.fileno(), header.items_offset + header.count * info.size, access=mmap.ACCESS_READ)
        except ValueError:
            raise ListMmfError(f"{path}: the file is shorter than the {header.count:,} items its header counts: it "
                               f"was cut short while being read") from None
        return header, memoryview(mapped)[header.items_offset:].cast(info.fmt)


def open_items(path):
    """Returns the first ``count`` items of the ListMmf file at ``path``, as stored.

    Codes 2-13: with numpy a read-only ``numpy.memmap`` of shape (count,) and the little-endian dtype of the code
    (DateTime as raw int64 ticks, UnixSeconds as raw int32 seconds); without numpy a read-only ``memoryview`` of
    format 'b', 'B', 'h', 'H', 'i', 'I', 'q', 'Q', 'f' or 'd' over a read-only ``mmap`` of the file. Both map only
    the header and ``count`` items, so items a writer appends later are never seen.

    Codes 14-21 (Int24 ... UInt56): a copy, decoded and sign-extended for the signed codes, as a numpy int64 array
    or a list of ints.

    Code 0 (AnyStruct) with a description and numpy: a read-only ``numpy.memmap`` of the structured dtype the
    description records (``struct_dtype``), one named field per struct field.

    Raises ``ListMmfError`` for a bad header (see ``read_header``), for Bit files, and for struct files without a
    description or without numpy.
    """
    header, items = _open(path)
    if items is None:
        raise ListMmfError(f"{os.fspath(path)}: {_UNSUPPORTED[header.code]}")
    return items


def _ticks_error(path, index, ticks):
    return ListMmfError(
        f"{path}: item {index:,} is {ticks:,} ticks, outside the .NET DateTime range 0 to {_MAX_TICKS:,}")


# The UnixSeconds value the existing ListMmf library stores for DateTime.MinValue.
_MIN_VALUE_SECONDS = -2**31

# The ticks that nanoseconds since 1970 in an int64 reach, either side of the epoch.
_NS_TICKS = 2**63 // 100


def _to_times(path, header, items, first=0):
    """Converts the raw items of a DateTime or UnixSeconds file (from item ``first`` on) to times; see ``open_times``."""
    if np is not None:
        values = np.array(items, dtype=np.int64)
        if header.code == UNIX_SECONDS:
            times = values.view("datetime64[s]").copy()
            times[values == _MIN_VALUE_SECONDS] = np.datetime64("0001-01-01T00:00:00", "s")
            return times
        bad = (values < 0) | (values > _MAX_TICKS)
        if bad.any():
            index = int(np.argmax(bad))
            raise _ticks_error(path, first + index, int(values[index]))
        since_epoch = values - _UNIX_EPOCH_TICKS
        if len(values) and (since_epoch.min() < -_NS_TICKS or since_epoch.max() >= _NS_TICKS):
            return (since_epoch // 10).view("datetime64[us]")
        return (since_epoch * 100).view("datetime64[ns]")
    if header.code == UNIX_SECONDS:
        return [datetime.datetime.min if s == _MIN_VALUE_SECONDS else _UNIX_EPOCH + datetime.timedelta(seconds=s) for s in items]
    times = []
    for index, ticks in enumerate(items):
        if not 0 <= ticks <= _MAX_TICKS:
            raise _ticks_error(path, first + index, ticks)
        times.append(_DOTNET_EPOCH + datetime.timedelta(microseconds=ticks // 10))
    return times


def open_times(path):
    """Returns the items of a DateTime (code 12) or UnixSeconds (code 13) file as times, without time zones.

    With numpy: a ``datetime64[s]`` array for UnixSeconds; for DateTime ticks a ``datetime64[ns]`` array, every tick
    kept, or, when a time lies outside 1677-2262 (beyond int64 nanoseconds), a ``datetime64[us]`` array (converted as
    (ticks - 621355968000000000) // 10, which covers the whole .NET range, 0001 to 9999). ``to_pandas`` gives a
    table's time column in the same unit. Without numpy: a list of naive ``datetime.datetime``. Times are taken as
    stored: no time zone is applied.

    In a UnixSeconds file the value -2**31 stands for .NET's DateTime.MinValue (0001-01-01), as the existing
    ListMmf library stores it; it becomes 0001-01-01T00:00:00 here too.

    .NET ticks have 100 ns resolution; the microsecond forms (``datetime64[us]``, ``datetime``) drop the seventh
    fractional digit of a DateTime (rounded down toward the earlier time).

    Raises ``ListMmfError`` for a bad header, a file of another type, or ticks outside the .NET DateTime range.
    """
    header, items = _open(path)
    if header.code not in (DATETIME, UNIX_SECONDS):
        raise ListMmfError(
            f"{os.fspath(path)}: the file holds {header.type_name} items (code {header.code}), not times; "
            f"open_times reads DateTime (12) and UnixSeconds (13) files")
    return _to_times(os.fspath(path), header, items)


TABLE_MANIFEST = "table.json"
"""The manifest a table folder holds: its time column, its value columns and their files."""


_NAME_LIMIT = 200
"""The most UTF-16 code units of a column's name or file name, as the C# library counts a string's length."""

_FORBIDDEN_IN_NAMES = frozenset('/\\:*?"<>|')
"""The characters no column name or file name holds: separators, and those Windows forbids in a file name."""

_TABLE_OWN_SUFFIXES = (".writer-lock", ".listmmf.tmp")
"""The ends of the names of a table's own files beside its columns: a writer's lock, a file being replaced."""

TEXT_TYPE = "Text"
"""The type a manifest records for a text column: codes (its "codes" type) into a file of distinct values."""

_TIME_TYPES = ("UnixSeconds", "DateTime")
_NUMBER_TYPES = tuple(TYPES[code].name for code in range(2, 14))
_VALUE_TYPES = _NUMBER_TYPES + (TEXT_TYPE,)
_TEXT_CODES = ("Byte", "UInt16", "UInt32")
"""The types of a table's time column, of its value columns (the .NET number types, times included, and text), and
of a text column's codes."""


def _name_problem(value):
    """What keeps ``value`` from being a plain file name on every system the C# library runs on, or None, as its
    TimeSeriesTableSchema judges a column's name and file name: joined to a table folder, such a name stays in the
    folder, whatever another user of a shared folder wrote in its manifest. Not empty; at most 200 UTF-16 code units;
    not "." or ".."; no separator, no character Windows forbids and no control character; not ending in a space or a
    dot, which Windows drops. A lone surrogate (JSON's "\\udcxx"), which no file name of the C# library holds and
    which Python would write as a raw byte, is refused with the control characters."""
    if not value:
        return "is empty"
    if len(value.encode("utf-16-le", "surrogatepass")) // 2 > _NAME_LIMIT:
        return f"is longer than {_NAME_LIMIT} characters"
    if value in (".", ".."):
        return "is not a file name"
    if any(c in _FORBIDDEN_IN_NAMES or unicodedata.category(c) in ("Cc", "Cs") for c in value):
        return 'holds a character that cannot be in a file name (/ \\ : * ? " < > | or a control character)'
    if value[-1] in " .":
        return "ends with a space or a dot, which Windows drops from file names"
    return None


def _shown(value, limit=64):
    """A name from a file, quoted for a message: escaped (``repr``), and cut after ``limit`` characters."""
    return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."


def _ignoring_case(value):
    """``value`` with each character upper-cased by itself, as .NET's OrdinalIgnoreCase compares names: 'ß' stays
    'ß' (Python's upper() makes it 'SS', which would call the columns 'ß' and 'ss' one name)."""
    return "".join(upper if len(upper := c.upper()) == 1 else c for c in value)


def _manifest_column(entry, what, types):
    """The problem with one column of a manifest (``what``: "the time column" or "value column N"), or None: an
    object whose name, type and file are strings, the type one of ``types``, the name and the file plain file names,
    the file none of the table's own. A text column (type "Text", when ``types`` allows it) also names the type of
    its codes ("codes": Byte, UInt16 or UInt32) and the file of its distinct values ("entries"), checked as its file."""
    if not isinstance(entry, dict):
        return f"{what} is not an object"
    text = entry.get("type") == TEXT_TYPE and TEXT_TYPE in types
    keys = ("name", "type", "file") + (("codes", "entries") if text else ())
    for key in keys:
        if not isinstance(entry.get(key), str):
            return f'{what}: "{key}" is missing or not a string'
    if entry["type"] not in types:
        return f"{what}: the type {_shown(entry['type'])} is not one of {', '.join(types)}"
    if text and entry["codes"] not in _TEXT_CODES:
        return f"{what}: the codes {_shown(entry['codes'])} are not one of {', '.join(_TEXT_CODES)}"
    for key, kind in (("name", "name"), ("file", "file name"), ("entries", "file name")):
        if key not in keys:
            continue
        problem = _name_problem(entry[key])
        if problem:
            return f"{what}: the column {kind} {_shown(entry[key])} {problem}"
        if key == "name":
            continue
        file = _ignoring_case(entry[key])
        if file == TABLE_MANIFEST.upper() or file.endswith(tuple(suffix.upper() for suffix in _TABLE_OWN_SUFFIXES)):
            return f"{what}: the file name {_shown(entry[key])} is a name the table uses for its own files"
    return None


def _read_manifest(table_dir, with_order=False):
    """The manifest of ``table_dir`` as (time column, value columns), each column a dict with name, type and file;
    with ``with_order``, (time column, value columns, order, whether the times are recorded as UTC).

    The manifest is checked as the C# library checks it before anything it names is opened: another user of a
    shared folder may have written it. Its format and version; its order; the time column's type a time and the
    value columns' types numbers; every name and file name a plain file name (``_name_problem``), so that a file
    joined to the folder is in the folder ("../x", "/etc/passwd" or "a/b" never is); no file one of the table's own;
    no two names, and no two files, alike ignoring case. Any problem raises ``ListMmfError`` naming the manifest."""
    path = os.path.join(table_dir, TABLE_MANIFEST)
    try:
        raw = _read_side_file(path, "the table manifest")
    except FileNotFoundError:
        raise ListMmfError(f"{table_dir}: not a table folder, it has no {TABLE_MANIFEST}") from None
    manifest = _load_json(raw, path, "the table manifest")
    problem = _manifest_problem(manifest)
    if problem:
        raise ListMmfError(f"{path}: not a valid ListMmf.TimeSeriesTable manifest: {problem}")
    if with_order:
        return manifest["time"], manifest["columns"], manifest["order"], manifest.get("timesAreUtc") is True
    return manifest["time"], manifest["columns"]


def _manifest_problem(manifest):
    """What is wrong with a parsed manifest, or None; see ``_read_manifest``."""
    if not isinstance(manifest, dict) or manifest.get("format") != "ListMmf.TimeSeriesTable":
        return '"format" is not "ListMmf.TimeSeriesTable"'
    if not _is_int32(manifest.get("version")) or manifest["version"] not in (1, 2):
        return '"version" is missing or not 1 (or 2, with text columns)'
    if manifest.get("order") not in _ORDERS:
        return '"order" is not "None", "Ascending" or "AscendingOrEqual"'
    if not isinstance(manifest.get("columns"), list):
        return '"columns" is missing or not a list'
    columns = [(manifest.get("time"), "the time column", _TIME_TYPES)] + [
        (entry, f"value column {index:,}", _VALUE_TYPES) for index, entry in enumerate(manifest["columns"])]
    names, files = {}, {}
    for entry, what, types in columns:
        problem = _manifest_column(entry, what, types)
        if problem:
            return problem
        if entry["type"] == TEXT_TYPE and manifest["version"] != 2:
            return f"{what} is text, which a version 1 manifest does not hold"
        for key, kind, seen in (("name", "name", names), ("file", "file", files), ("entries", "file", files)):
            if key not in entry or (key == "entries" and entry["type"] != TEXT_TYPE):
                continue
            alike = _ignoring_case(entry[key])
            if alike in seen:
                return (f"{what}: its {kind} {_shown(entry[key])} is already the {kind} of {seen[alike]} "
                        f"({kind}s are compared ignoring case)")
            seen[alike] = what
    return None


def _frame_times(path, header, raw, numpy, first=0):
    """A table's time column for a DataFrame from its raw items (row ``first`` on), as ``open_times`` converts them."""
    return _to_times(path, header, raw, first)


_ZONE = re.compile(r"(?<=\d)(Z|z|[+-](\d\d)(?::?(\d\d))?)$")
"""A zone at the end of an ISO 8601 time of day: Z, or an offset +hh:mm, +hhmm or +hh (or with '-')."""


def _zoneless(table_dir, bound, utc, numpy):
    """``bound`` without a zone, as the library takes it: a bound with a zone (a zone-aware ``datetime`` or pandas
    ``Timestamp``, or text ending in Z or an offset) is converted to UTC for a table recorded as UTC and refused for
    any other table, whose times are clock times of no recorded zone; a bound without one is taken as stored."""
    offset = None
    if isinstance(bound, datetime.datetime) and bound.tzinfo is not None:
        offset = bound.utcoffset()
        if utc:
            return bound.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    elif isinstance(bound, str) and ("T" in bound or " " in bound) and (match := _ZONE.search(bound)) is not None:
        zone = match.group(1)
        sign = -1 if zone[0] == "-" else 1
        minutes = 0 if zone in ("Z", "z") else sign * (int(match.group(2)) * 60 + int(match.group(3) or 0))
        offset = datetime.timedelta(minutes=minutes)
        if utc:
            return numpy.datetime64(bound[:match.start()].replace(" ", "T")) - numpy.timedelta64(minutes, "m")
    if offset is None:
        return bound
    raise ListMmfError(f"{table_dir}: the time bound {bound!r} has a time zone, but the table's times are not recorded "
                       f"as UTC: they are clock times of no recorded zone; give the bound as stored, without a zone")


def _nanoseconds(table_dir, bound, numpy):
    """``bound`` (anything ``numpy.datetime64`` takes) as nanoseconds since 1970, a Python int, exact and unbounded:
    converted at its own unit, since a conversion to datetime64[ns] wraps around outside 1678-2262."""
    value = numpy.datetime64(bound)
    if numpy.isnat(value):
        raise ListMmfError(f"{table_dir}: a time bound is NaT (not a time)")
    unit, _ = numpy.datetime_data(value.dtype)
    if unit in ("ns", "ps", "fs", "as"):
        return int(value.astype("datetime64[ns]").astype(numpy.int64))
    return int(value.astype("datetime64[us]").astype(numpy.int64)) * 1000


def _raw_bound(table_dir, header, raw, bound, numpy):
    """The first raw time value at or after ``bound``, in the time column's storage (ticks, or Unix seconds), as a
    scalar of the column's dtype (a Python int would make numpy widen the whole mapped column to compare)."""
    nanoseconds = _nanoseconds(table_dir, bound, numpy)
    if header.code == DATETIME:
        value = -(-nanoseconds // 100) + _UNIX_EPOCH_TICKS
    else:
        value = -(-nanoseconds // 1_000_000_000)
        # -2**31 stands for 0001-01-01 and sorts first: a bound after 0001-01-01 leaves it out.
        if value <= _MIN_VALUE_SECONDS:
            value = _MIN_VALUE_SECONDS if nanoseconds <= (-_UNIX_EPOCH_TICKS) * 100 else _MIN_VALUE_SECONDS + 1
    limits = numpy.iinfo(raw.dtype)
    return raw.dtype.type(min(max(value, limits.min), limits.max))


def _open_column(table_dir, column, what):
    """(header, items) of a column's file, refused when it holds another type than the manifest records, as the C#
    library refuses it (``what``: "time column" or "column"). The name is checked (``_read_manifest``), so the
    file is in the folder. A file the manifest names that does not exist is damage, as the C# library says."""
    path = os.path.join(table_dir, column["file"])
    try:
        header, items = _open(path, _open_column_file)
    except FileNotFoundError:
        raise ListMmfError(f"{table_dir}: the manifest names the {what} '{column['name']}', stored in "
                           f"'{column['file']}', which does not exist: the table is damaged") from None
    recorded = column["codes"] if column["type"] == TEXT_TYPE else column["type"]
    if header.type_name != recorded:
        raise ListMmfError(f"{path}: the {what} '{column['name']}' holds {header.type_name} items, but the table's "
                           f"{TABLE_MANIFEST} records {recorded}")
    return header, items


_STRICT_UTF8 = codecs.getdecoder("utf-8")


def read_text_entries(path):
    """The distinct values of a text column, from its file of values at ``path`` (the manifest's "entries"), as a
    list of str whose positions are the codes the column's rows hold. The file is a Byte file holding each value as
    its UTF-8 length (LEB128, at most five bytes, the shortest form, below 2**31) and its UTF-8 bytes, each value once.

    Raises ``ListMmfError`` naming the file, the value and the byte where a value is cut short, is not UTF-8, or
    repeats an earlier one."""
    path = os.fspath(path)
    header, items = _open(path)
    if header.type_name != "Byte":
        raise ListMmfError(f"{path}: a text column's values are in a Byte file, not {header.type_name}")
    data = bytes(items)
    values, seen, at = [], {}, 0
    while at < len(data):
        start, length, shift, used = at, 0, 0, 0
        while True:
            if used == 5 or at == len(data):
                raise ListMmfError(f"{path}: the distinct value {len(values):,}, at byte {start:,}, is damaged: its "
                                   f"length {'takes more than five bytes' if used == 5 else 'is cut short'}")
            byte = data[at]
            at += 1
            used += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        if length >= 2**31 or (used > 1 and data[at - 1] == 0):
            raise ListMmfError(f"{path}: the distinct value {len(values):,}, at byte {start:,}, is damaged: its length "
                               f"is not a shortest LEB128 number below 2^31")
        if length > len(data) - at:
            raise ListMmfError(f"{path}: the distinct value {len(values):,}, at byte {start:,}, is damaged: its "
                               f"{length:,} bytes run past the file's end ({len(data):,} bytes)")
        try:
            value = _STRICT_UTF8(data[at:at + length])[0]
        except UnicodeDecodeError:
            raise ListMmfError(f"{path}: the distinct value {len(values):,}, at byte {start:,}, is damaged: its bytes "
                               f"are not UTF-8") from None
        if value in seen:
            raise ListMmfError(f"{path}: the distinct value {len(values):,}, at byte {start:,}, is damaged: it repeats "
                               f"value {seen[value]:,}, {value!r}")
        seen[value] = len(values)
        values.append(value)
        at += length
    return values


def _text_values(table_dir, column, codes, numpy, pandas):
    """A text column's rows, ``codes``, as a pandas Categorical of its distinct values (read after the codes, so
    that every published code has its value); a code no value has is damage, refused naming the row."""
    entries = read_text_entries(os.path.join(table_dir, column["entries"]))
    codes = numpy.asarray(codes)
    if len(codes):
        top = int(codes.argmax())
        if int(codes[top]) >= len(entries):
            raise ListMmfError(f"{os.path.join(table_dir, column['file'])}: text column '{column['name']}' holds code "
                               f"{int(codes[top]):,} at row {top:,} of those read, but the file of its distinct values "
                               f"holds {len(entries):,}")
    return pandas.Categorical.from_codes(codes.astype(numpy.int32 if len(entries) < 2**31 else numpy.int64),
                                         categories=pandas.Index(entries, dtype=object))


def _row_range(table_dir, time, order, utc, start, end, numpy, limit=None):
    """(time file header, raw times over the mapping, first row, end row) for the rows with start <= time < end, from
    the manifest's time column, order and UTC flag (read once by the caller, so the columns and the time come from
    one manifest); only of the first ``limit`` rows when given (a catalog's recorded rows)."""
    header, raw = _open_column(table_dir, time, "time column")
    if limit is not None:
        if len(raw) < limit:
            raise ListMmfError(f"{os.path.join(table_dir, time['file'])}: the table holds {len(raw):,} rows, fewer than "
                               f"the {limit:,} its catalog records")
        raw = raw[:limit]
    if (start is not None or end is not None) and order not in ("Ascending", "AscendingOrEqual"):
        raise ListMmfError(f"{table_dir}: the table's order is {order}, so its times are not sorted and a time range "
                           f"cannot be found by a search; read it whole")
    start, end = (None if bound is None else _zoneless(table_dir, bound, utc, numpy) for bound in (start, end))
    first = 0 if start is None else int(numpy.searchsorted(raw, _raw_bound(table_dir, header, raw, start, numpy)))
    last = len(raw) if end is None else int(numpy.searchsorted(raw, _raw_bound(table_dir, header, raw, end, numpy)))
    return header, raw, first, max(first, last)


def _frame(table_dir, start, end, columns, numpy, pandas, empty=False, limit=None):
    """The rows of a table with start <= time < end (none when ``empty``; of the first ``limit`` rows when given),
    and the value columns named (all when None), as a DataFrame."""
    table_dir = os.fspath(table_dir)
    time, value_columns, order, utc = _read_manifest(table_dir, with_order=True)
    if isinstance(columns, str):
        columns = [columns]
    if columns is not None:
        unknown = [name for name in columns if name not in {c["name"] for c in value_columns}]
        if unknown:
            raise ListMmfError(f"{table_dir}: no value column {', '.join(map(repr, unknown))}; its value columns are "
                               f"{', '.join(c['name'] for c in value_columns)}")
        value_columns = [c for c in value_columns if c["name"] in columns]
    header, raw, first, last = _row_range(table_dir, time, order, utc, start, end, numpy, limit)
    if empty:
        last = first
    time_path = os.path.join(table_dir, time["file"])
    data = {time["name"]: _frame_times(time_path, header, raw[first:last], numpy, first)}
    rows = len(raw)
    for column in value_columns:
        path = os.path.join(table_dir, column["file"])
        _, values = _open_column(table_dir, column, "column")
        if len(values) < rows:
            raise ListMmfError(
                f"{path}: column '{column['name']}' holds {len(values):,} values, fewer than the table's {rows:,} rows")
        if column["type"] == TEXT_TYPE:
            data[column["name"]] = _text_values(table_dir, column, values[first:last], numpy, pandas)
        else:
            data[column["name"]] = numpy.asarray(values[first:last])
    try:
        frame = pandas.DataFrame(data)
        if utc:
            # Marks the times as UTC, as the library returns them; the values are not shifted.
            frame[time["name"]] = frame[time["name"]].dt.tz_localize("UTC")
        return frame
    except pandas.errors.OutOfBoundsDatetime:
        # pandas 1.x holds every time as int64 nanoseconds: 0001-01-01 (DateTime.MinValue) or 9999 do not fit.
        raise ListMmfError(f"{time_path}: the time column holds times outside 1677-2262, which pandas "
                           f"{pandas.__version__} cannot hold (it keeps times as nanoseconds; pandas 2 keeps them "
                           f"at their own resolution)") from None


def _pandas(caller):
    try:
        import numpy
        import pandas
    except ImportError:
        raise ImportError(f"{caller} needs pandas (pip install pandas, or the python3-pandas package)") from None
    return numpy, pandas


def to_pandas(table_dir, start=None, end=None, columns=None):
    """Returns the rows of the table in ``table_dir`` as a ``pandas.DataFrame``: the time column first, as
    ``datetime64`` (seconds for a UnixSeconds column; nanoseconds for ticks, so no tick is lost, or microseconds as
    ``open_times`` gives them when a time lies outside 1677-2262; pandas 1.x makes every column nanoseconds), aware
    of UTC (``datetime64[ns, UTC]``) for a table whose manifest records its times as UTC, naive otherwise; then
    each value column with the dtype of its file; a text column as a ``category`` column whose categories are its
    distinct values in the order they first came (``read_text_entries``) and whose codes are the ones stored.

    ``start`` and ``end`` (anything ``numpy.datetime64`` takes, at any resolution and from year 1 to 9999, or a
    zone-aware ``datetime``/``Timestamp``) keep the rows with ``start <= time < end``. A bound with a zone (aware, or
    text ending in Z or an offset) is converted to UTC for a table recorded as UTC and refused for any other table, as
    the library refuses it; a bound without one is taken as stored. The rows are found by a binary search of the
    mapped time column (a table of order None is refused a range); ``columns`` names the value columns to keep (all
    when None). Only the rows and columns kept are read from the mappings: they are copied into the frame (pandas
    owns its memory).

    The rows are those the table had published when the time column was read: its count is read first, and a writer
    publishes a row's values before its time, so every value column holds at least that many. A value column holding
    fewer values than the rows is damage and raises ``ListMmfError``.

    Raises ``ImportError`` when pandas is not importable, and ``ListMmfError`` for a folder without a valid manifest,
    an unknown column, or a file this reader refuses.
    """
    numpy, pandas = _pandas("to_pandas")
    return _frame(table_dir, start, end, columns, numpy, pandas)


def _dask_partition(table_dir, start, end, columns, table_column, empty=False):
    numpy, pandas = _pandas("to_dask")
    frame = _frame(table_dir, start, end, columns, numpy, pandas, empty)
    if table_column is not None:
        frame[table_column] = os.path.basename(os.path.normpath(table_dir))
    return frame


def to_dask(table_dirs, start=None, end=None, columns=None, table_column="table"):
    """Returns the tables in ``table_dirs`` (for example one per instrument and day) as one ``dask.dataframe``
    whose partitions are the tables, in the order given. Each partition is made where Dask runs it (a worker process
    of a ``distributed`` cluster maps the files itself): ``to_pandas(table_dir, start, end, columns)``, so the time
    range and the columns are chosen before anything is read, plus a column ``table_column`` holding the folder's name
    (None leaves it out). The tables must have the same columns; the first one gives the frame's
    schema.

    Raises ``ImportError`` when dask is not importable.
    """
    try:
        import dask.dataframe
    except ImportError:
        raise ImportError("to_dask needs dask (pip install 'dask[dataframe]', or the python3-dask package)") from None
    table_dirs = [os.fspath(table_dir) for table_dir in table_dirs]
    if not table_dirs:
        raise ValueError("to_dask needs at least one table folder")
    meta = _dask_partition(table_dirs[0], start, end, columns, table_column, empty=True)
    # Each table has distinct values of its own, in its own order: a text column's categories are known per partition.
    from dask.dataframe.utils import clear_known_categories
    meta = clear_known_categories(meta)
    return dask.dataframe.from_map(
        _dask_partition, table_dirs, args=(start, end, columns, table_column), meta=meta, enforce_metadata=False)


CatalogPartition = collections.namedtuple(
    "CatalogPartition", "kind instrument period_start first_time last_time rows sealed path")
CatalogPartition.__doc__ = """A partition a catalog's index records: its kind and instrument names, its period's start and its
first and last rows' times (naive ``datetime``, as stored: UTC for a kind recorded as UTC), the rows recorded (the
table may hold more, appended since), whether it is sealed, and its table's folder."""

# The index's 48-byte line (docs/file-format.md, "Catalogs"): instrument, kind, period start, first and last
# times, rows, sealed, reserved.
_CATALOG_LINE = struct.Struct("<iiqqqqii")
_CATALOG_PERIODS = {"Day": "%Y-%m-%d", "Month": "%Y-%m", "Year": "%Y"}


def _ticks_datetime(ticks):
    return _DOTNET_EPOCH + datetime.timedelta(microseconds=ticks // 10)


def _read_catalog(catalog_dir, snapshot):
    """(manifest's period, kinds as [(name, table manifest)], instrument names, index lines) of the catalog, the
    lines and names limited to ``snapshot``'s when one is named."""
    catalog_dir = os.fspath(catalog_dir)
    manifest_path = os.path.join(catalog_dir, "catalog.json")
    try:
        manifest = _load_json(_read_side_file(manifest_path, "catalog manifest"), manifest_path, "catalog manifest")
    except FileNotFoundError:
        raise ListMmfError(f"{catalog_dir}: no catalog.json, so the folder is no catalog") from None
    if not isinstance(manifest, dict) or manifest.get("format") != "ListMmf.TimeSeriesCatalog" \
            or manifest.get("version") != 1 or manifest.get("period") not in _CATALOG_PERIODS \
            or not isinstance(manifest.get("kinds"), list) or not manifest["kinds"]:
        raise ListMmfError(f"{manifest_path}: not a version 1 catalog manifest (format ListMmf.TimeSeriesCatalog, a "
                           f"period of Day, Month or Year, and kinds)")
    kinds = [(kind.get("name"), kind.get("table")) for kind in manifest["kinds"] if isinstance(kind, dict)]
    index_path = os.path.join(catalog_dir, "partitions.mmf")
    f, header = _open_current(index_path)
    with f:
        if header.code != 0 or header.item_size != _CATALOG_LINE.size:
            raise ListMmfError(f"{index_path}: a catalog's index holds {_CATALOG_LINE.size}-byte lines, not "
                               f"{header.type_name} items of {header.item_size} bytes")
        count = header.count
        if snapshot is not None:
            snapshot_path = os.path.join(catalog_dir, "snapshots", f"{snapshot}.json")
            taken = _load_json(_read_side_file(snapshot_path, "catalog snapshot"), snapshot_path, "catalog snapshot")
            if not isinstance(taken, dict) or taken.get("format") != "ListMmf.CatalogSnapshot" or taken.get("version") != 1:
                raise ListMmfError(f"{snapshot_path}: not a version 1 catalog snapshot")
            if taken["indexLines"] > count:
                raise ListMmfError(f"{snapshot_path}: the snapshot takes {taken['indexLines']:,} index lines, and "
                                   f"{index_path} holds {count:,}")
            count = taken["indexLines"]
        f.seek(header.items_offset)
        raw = f.read(count * _CATALOG_LINE.size)
    if len(raw) < count * _CATALOG_LINE.size:
        raise ListMmfError(f"{index_path}: the file is shorter than the {count:,} lines its header counts")
    # Read after the lines: the writer makes an instrument's name durable before a line names it.
    names = read_text_entries(os.path.join(catalog_dir, "instruments.text.mmf"))
    if snapshot is not None:
        names = names[:taken["instruments"]]
    return manifest["period"], kinds, names, [_CATALOG_LINE.unpack_from(raw, at) for at in range(0, len(raw), _CATALOG_LINE.size)]


def catalog_partitions(catalog_dir, kind=None, instruments=None, snapshot=None):
    """Returns the partitions the index of the catalog in ``catalog_dir`` (a ``TimeSeriesCatalog``) records, as
    ``CatalogPartition`` tuples in kind, instrument and period order: those of ``kind`` and of the instrument names in
    ``instruments`` where given; as the named ``snapshot`` recorded them when one is given. Reads the manifest, the
    instruments and the index; opens no partition.

    Raises ``ListMmfError`` for a folder that is no catalog, an unknown kind or snapshot, or an index line that names a
    kind or instrument the catalog does not have."""
    return _catalog_partitions(catalog_dir, kind, instruments, snapshot)[0]


def _catalog_partitions(catalog_dir, kind, instruments, snapshot):
    """(the partitions ``catalog_partitions`` returns, each one's first and last times in ticks, the kinds as
    {name: table manifest}, the instrument names)."""
    catalog_dir = os.fspath(catalog_dir)
    period, kinds, names, lines = _read_catalog(catalog_dir, snapshot)
    kind_names = [name for name, _ in kinds]
    if kind is not None and kind not in kind_names:
        raise ListMmfError(f"{catalog_dir}: the catalog has no kind {kind!r}; its kinds are {', '.join(kind_names)}")
    if isinstance(instruments, str):
        instruments = [instruments]
    wanted = None if instruments is None else set(instruments)
    latest = {}
    for number, (instrument, rank, period_start, first, last, rows, sealed, _) in enumerate(lines):
        if rank == -1 and instrument == -1:
            continue  # a watermark line
        if not 0 <= rank < len(kinds) or not 0 <= instrument < len(names) or rows < 0 or sealed not in (0, 1):
            raise ListMmfError(f"{os.path.join(catalog_dir, 'partitions.mmf')}: line {number:,} names kind {rank}, "
                               f"instrument {instrument}, {rows:,} rows and sealed {sealed}, which the catalog's "
                               f"{len(kinds)} kinds and {len(names)} instruments do not have")
        latest[(rank, instrument, period_start)] = (first, last, rows, sealed)
    partitions, ticks = [], []
    for (rank, instrument, period_start), (first, last, rows, sealed) in sorted(latest.items()):
        if (kind is not None and kind_names[rank] != kind) or (wanted is not None and names[instrument] not in wanted):
            continue
        start = _ticks_datetime(period_start)
        path = os.path.join(catalog_dir, kind_names[rank], names[instrument], start.strftime(_CATALOG_PERIODS[period]))
        partitions.append(CatalogPartition(kind_names[rank], names[instrument], start, _ticks_datetime(first),
                                           _ticks_datetime(last), rows, bool(sealed), path))
        ticks.append((first, last))
    return partitions, ticks, dict(kinds), names


def _catalog_partition(path, rows, instrument, start, end, columns, categories, instrument_column, empty=False):
    numpy, pandas = _pandas("catalog_to_dask")
    frame = _frame(path, start, end, columns, numpy, pandas, empty, limit=rows)
    if instrument_column is not None:
        frame[instrument_column] = pandas.Categorical([instrument] * len(frame), categories=categories)
    return frame.set_index(frame.columns[0])


def catalog_to_dask(catalog_dir, kind, instruments=None, start=None, end=None, columns=None, snapshot=None,
                    instrument_column="instrument"):
    """Returns the recorded rows of one ``kind`` of the catalog in ``catalog_dir`` as a ``dask.dataframe`` with a
    Dask partition per catalog partition, indexed by the time column: the partitions of the instruments named (all
    when None) whose recorded times meet ``start <= time < end``, found from the index alone, in order of their
    first times. Each partition is made where Dask runs it, as ``to_pandas`` makes a table's rows with ``start``,
    ``end`` and ``columns``, limited to the rows the index records (a writer may have appended more since), plus
    the column ``instrument_column`` (None leaves it out), a category of the catalog's instruments. With
    ``snapshot``, the catalog as that named snapshot recorded it.

    The divisions come from the index: each partition's first time, then the last partition's last time, when the
    partitions do not overlap in time (one instrument's, always). Partitions of several instruments over the same
    days overlap, so Dask is told the divisions are unknown; ``set_index`` or one instrument at a time gives them.

    Raises ``ImportError`` when dask is not importable, and ``ListMmfError`` as ``catalog_partitions`` does, or when
    no partition holds rows in the range."""
    try:
        import dask.dataframe
        from dask.dataframe.utils import clear_known_categories
    except ImportError:
        raise ImportError("catalog_to_dask needs dask (pip install 'dask[dataframe]', or the python3-dask package)") from None
    numpy, pandas = _pandas("catalog_to_dask")
    catalog_dir = os.fspath(catalog_dir)
    partitions, ticks, kinds, names = _catalog_partitions(catalog_dir, kind, instruments, snapshot)
    utc = isinstance(kinds[kind], dict) and kinds[kind].get("timesAreUtc") is True
    # The bounds in ticks, rounded outwards (a partition chosen too many reads no row outside the range), from their
    # nanoseconds: the index's times are 100 ns ticks, finer than a datetime's microseconds.
    low, high = (None if bound is None else pandas.Timestamp(_zoneless(catalog_dir, bound, utc, numpy)).value
                 for bound in (start, end))
    low = None if low is None else low // 100 + _UNIX_EPOCH_TICKS
    high = None if high is None else -(-high // 100) + _UNIX_EPOCH_TICKS
    chosen = [(first, last, partition) for partition, (first, last) in zip(partitions, ticks) if partition.rows > 0
              and (low is None or last >= low) and (high is None or first < high)]
    if not chosen:
        raise ListMmfError(f"{catalog_dir}: no partition of {kind!r} records rows in the range and instruments asked for")
    ordinals = {name: ordinal for ordinal, name in enumerate(names)}
    chosen.sort(key=lambda entry: (entry[0], ordinals[entry[2].instrument]))
    bounds = [(first, last) for first, last, _ in chosen]
    chosen = [partition for _, _, partition in chosen]
    categories = pandas.Index(names, dtype=object)
    args = (start, end, columns, categories, instrument_column)
    meta = _catalog_partition(chosen[0].path, chosen[0].rows, chosen[0].instrument, *args, empty=True)
    # Each table has distinct values of its own, in its own order: a text column's categories are known per partition.
    text = [name for name in meta.columns if name != instrument_column and isinstance(meta[name].dtype, pandas.CategoricalDtype)]
    if text:
        meta = clear_known_categories(meta, cols=text)
    divisions = None
    if all(before[1] < after[0] for before, after in zip(bounds, bounds[1:])):
        times = [first for first, _ in bounds] + [bounds[-1][1]]
        divisions = tuple(pandas.Timestamp((time - _UNIX_EPOCH_TICKS) * 100, unit="ns", tz="UTC" if utc else None) for time in times)
    return dask.dataframe.from_map(
        _catalog_partition, [p.path for p in chosen], [p.rows for p in chosen], [p.instrument for p in chosen],
        args=args, meta=meta, divisions=divisions, enforce_metadata=False)


def _show(path, shown=5):
    """Prints the header of ``path`` and its first and last ``shown`` items (times as times and raw values)."""
    header, items = _open(path)
    size = "?" if header.item_size is None else header.item_size
    print(f"{path}: version {header.version}, {header.type_name} (code {header.code}), {size}-byte items, "
          f"count {header.count:,}, file {header.file_length:,} bytes")
    if items is None:
        print(f"  items not shown: {_UNSUPPORTED[header.code]}")
        return
    n = len(items)
    indices = list(range(n)) if n <= 2 * shown else [*range(shown), None, *range(n - shown, n)]
    raw = [items[i] for i in indices if i is not None]
    times = _to_times(path, header, raw) if header.code in (DATETIME, UNIX_SECONDS) else None
    if times is not None and not isinstance(times, list):
        # datetime64 prints with a 'T'; shown as datetime objects, both paths print the same lines.
        times = times.astype(object)
    values = iter(raw if times is None else [f"{t}  ({r})" for t, r in zip(times, raw)])
    for i in indices:
        print("  ..." if i is None else f"  [{i}] {next(values)}")


def main(argv=None):
    """Command-line entry: shows each file named in ``argv``; returns 0, 1 if any file was bad, 2 without files."""
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print("usage: python3 listmmf.py FILE...", file=sys.stderr)
        return 2
    status = 0
    for path in paths:
        try:
            _show(path)
        except (ListMmfError, OSError) as error:
            print(f"listmmf: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
