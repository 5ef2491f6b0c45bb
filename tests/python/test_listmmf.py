"""Tests of src/python/listmmf.py, stdlib unittest only.

Run from the repository root:

    python3 -m unittest discover -s tests/python -v

Every test runs under the standard-library path and, when numpy is importable, under the numpy path as well.

Hand-made files: ``HeaderTests``, ``ItemTests`` and ``CommandLineTests`` write their own files with ``struct`` into a
temporary directory (header errors, every standard type, odd widths, times, a count that grows after opening).

C# fixtures: ``FixtureTests`` reads a directory named by the environment variable ``LISTMMF_PY_FIXTURES``, and is
skipped when it is unset. The directory holds ListMmf files written by the C# library and ``expected.json``, a JSON
object mapping each file name (relative to the directory, e.g. "Int32.bt") to

    {"code": <data-type code, int>, "values": [<the items, in order>]}

    codes 2-9:   "values" are JSON integers, exactly as stored (UInt64 up to 18446744073709551615).
    code 10:     JSON numbers; each must round trip to the stored float32 (the test compares
                 struct.unpack('<f', struct.pack('<f', v))[0]). Finite values only (JSON has no NaN/Infinity).
    code 11:     JSON numbers that round trip exactly to the stored double (C# "R" or the default .NET Core 3.0+
                 formatting). Finite values only.
    codes 12-13: "values" are the raw stored integers (DateTime.Ticks, Unix seconds), plus
                 "iso": [<the same times as 'YYYY-MM-DDTHH:MM:SS' strings>], whole seconds, no zone, no fraction.

Every code 2 to 13 must appear in at least one file. The header count of each file must equal len(values); its
length may (and should) exceed 16 + count * item size.
"""

import contextlib
import copy
import datetime
import errno
import io
import json
import os
import random
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import traceback
import tracemalloc
import unittest
import warnings
import zlib
from unittest import mock

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_MODULE_DIR = os.path.join(_REPO, "src", "python")
sys.path.insert(0, _MODULE_DIR)

import listmmf  # noqa: E402  (imported from src/python, added to the path above)

BACKENDS = ["stdlib"] + (["numpy"] if listmmf.np is not None else [])

_FORMATS = {2: "b", 3: "B", 4: "h", 5: "H", 6: "i", 7: "I", 8: "q", 9: "Q", 10: "f", 11: "d", 12: "q", 13: "i"}


def backend(name):
    """A context manager under which ``listmmf`` uses the named path ('stdlib' hides numpy)."""
    return mock.patch.object(listmmf, "np", None if name == "stdlib" else listmmf.np)


def plain(items):
    """The items as a list of Python numbers, from a list, a memoryview or a numpy array."""
    return items if isinstance(items, list) else items.tolist()


def is_read_only(items):
    """Whether a memoryview or numpy array refuses writes."""
    return items.readonly if isinstance(items, memoryview) else not items.flags.writeable


def as_datetimes(times):
    """The times as naive datetime.datetime objects, from a list or a numpy datetime64[s]/[us]/[ns] array (a [ns]
    array's tolist gives ints, so it goes through [us], which the expected datetimes hold)."""
    if isinstance(times, list):
        return times
    return (times.astype("datetime64[us]") if times.dtype == "datetime64[ns]" else times).tolist()


def write_file(path, payload=b"", version=0, code=6, count=0, capacity_bytes=0):
    """Writes a 16-byte header and ``payload``, then non-zero filler up to ``capacity_bytes`` of item space."""
    filler = b"\xa5" * max(0, capacity_bytes - len(payload))
    with open(path, "wb") as f:
        f.write(struct.pack("<iiq", version, code, count) + payload + filler)
    return path


def write_v2(path, code, item_size, count, payload=b"", items_offset=4096):
    """Writes a version 2 file: its 64 fixed bytes, sealed by their CRC-32 (the counts, state, session and generation
    as zeros), no description, zeros up to ``items_offset``, then ``payload``. Its session is this boot's, so its
    live count is read."""
    fixed = bytearray(64)
    struct.pack_into("<iiqiiqQiii", fixed, 0, 2, code, count, 0, items_offset, count, listmmf._BOOT_SESSION, 0,
                     item_size, 0)
    sealed = bytearray(fixed)
    for start, end in ((8, 20), (24, 44), (56, 64)):
        sealed[start:end] = bytes(end - start)
    struct.pack_into("<I", fixed, 56, zlib.crc32(bytes(sealed)))
    with open(path, "wb") as f:
        f.write(bytes(fixed) + bytes(items_offset - 64) + payload)
    return path


def write_sealed(path, code, item_size, count, codec, base, step):
    """Writes a sealed file of ``count`` (at most 1,024) values in one block of ``codec`` packed at width 0, so every
    value is ``base``, scaled by ``step`` for the float codecs; every checksum right, as a hand-made file planted in a
    shared folder would have them."""
    values = min(count, 1024)
    payload = bytes(8)  # zero bits a value, plus the packing's 8 bytes of padding
    block = bytearray(struct.pack("<BBHIqqdI", codec, 0, values, len(payload), base, 0, step, 0) + bytes(4))
    struct.pack_into("<I", block, 32, zlib.crc32(payload, zlib.crc32(bytes(block[:32]))))
    blocks_offset = 4096
    directory = blocks_offset + len(block) + len(payload)
    tail = bytes((item_size + 7) & ~7) + struct.pack("<2Q", blocks_offset, directory)
    head = bytearray(128)
    struct.pack_into("<iiqiiq", head, 0, 3, code, count, 0, blocks_offset, count)
    struct.pack_into("<ii", head, 44, item_size, 0)
    raw_bytes = min(count * item_size, 2**63 - 1)  # a count whose bytes pass an Int64 has it cut, as damage would
    struct.pack_into("<8siiqqI4xq", head, 64, b"LMSEALED", 1, 1024, 1, directory, zlib.crc32(tail), raw_bytes)
    zeroed = bytearray(head)
    zeroed[16:20], zeroed[56:60] = bytes(4), bytes(4)
    struct.pack_into("<I", head, 56, zlib.crc32(bytes(zeroed)))
    with open(path, "wb") as f:
        f.write(bytes(head) + bytes(blocks_offset - 128) + bytes(block) + payload + tail)
    return path


def call_with_deadline(test, call, seconds=10.0, release=None):
    """Runs ``call()`` in a thread and returns the exception it raised (None if it returned); fails ``test`` if it is
    still running after ``seconds``, so a reader that blocks (on a FIFO) fails the test instead of hanging the suite.
    ``release``, a FIFO's path, is then opened for writing to unblock the reader."""
    outcome = []

    def run():
        try:
            call()
            outcome.append(None)
        except BaseException as error:  # noqa: B902  (handed to the test, which checks what it is)
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if release is not None:
            try:
                os.close(os.open(release, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        test.fail(f"still blocked after {seconds:g} s")
    return outcome[0]


class TempDirTestCase(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name

    def path(self, name):
        return os.path.join(self.dir, name)


class HeaderTests(TempDirTestCase):
    def assert_bad(self, path, *words):
        """Both read_header and open_items raise ListMmfError naming the file and containing ``words``."""
        for call in (listmmf.read_header, listmmf.open_items):
            for name in BACKENDS:
                with self.subTest(call=call.__name__, backend=name), backend(name):
                    with self.assertRaises(listmmf.ListMmfError) as caught:
                        call(path)
                    message = str(caught.exception)
                    self.assertTrue(message.startswith(path + ": "), message)
                    for word in words:
                        self.assertIn(word, message)
                    self.assertIsInstance(caught.exception, ValueError)

    def test_header_fields(self):
        path = write_file(self.path("a.bt"), struct.pack("<3i", 1, 2, 3), code=6, count=3, capacity_bytes=40)
        self.assertEqual(listmmf.read_header(path), listmmf.Header(listmmf.VERSION_1, 6, "Int32", 4, 3, 56))

    def test_empty_file(self):
        self.assert_bad(self._truncate(write_file(self.path("empty.bt")), 0), "0 bytes", "shorter than the 16-byte")

    def test_short_file(self):
        self.assert_bad(self._truncate(write_file(self.path("short.bt")), 10), "10 bytes", "shorter than the 16-byte")

    def test_a_file_left_marked_replaced_is_read_whole_as_unmarked(self):
        path = write_file(self.path("marked.bt"), struct.pack("<3i", 1, 2, 3), version=-1, code=6, count=3)
        self.assertEqual(listmmf.read_header(path), listmmf.Header(listmmf.VERSION_1, 6, "Int32", 4, 3, 28))
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                self.assertEqual(list(listmmf.open_items(path)), [1, 2, 3])

    def test_a_file_marked_replaced_is_opened_again_at_its_path(self):
        old = write_file(self.path("old.bt"), struct.pack("<2i", 1, 2), version=-1, code=6, count=2)
        new = write_file(self.path("new.bt"), struct.pack("<i", 2), code=6, count=1)
        opened = []
        real_open = open

        def open_replacing(path, mode="r", *args, **kwargs):
            # The first open finds the marked file; the writer's rename puts the new one at the path before the next.
            opened.append(path)
            return real_open(old if len(opened) == 1 else new, mode, *args, **kwargs)

        with mock.patch("builtins.open", open_replacing):
            header = listmmf.read_header(self.path("list.bt"))
        self.assertEqual((header.version, header.count), (listmmf.VERSION_1, 1))
        self.assertEqual(len(opened), 2)

    def test_unknown_version(self):
        self.assert_bad(write_file(self.path("v1.bt"), version=1), "version 1")

    def test_unknown_code(self):
        self.assert_bad(write_file(self.path("c99.bt"), code=99), "data-type code 99")

    def test_negative_code(self):
        self.assert_bad(write_file(self.path("c-1.bt"), code=-1), "data-type code -1")

    def test_negative_count(self):
        self.assert_bad(write_file(self.path("neg.bt"), code=6, count=-1, capacity_bytes=64), "negative count (-1)")

    def test_count_past_end(self):
        path = write_file(self.path("past.bt"), struct.pack("<2i", 1, 2), code=6, count=3)
        self.assert_bad(path, "claims 3 items of 4 bytes", "24 bytes long", "room for 2")

    def test_count_past_end_by_a_partial_item(self):
        path = write_file(self.path("partial.bt"), struct.pack("<2i", 1, 2) + b"\0\0\0", code=6, count=3)
        self.assert_bad(path, "claims 3 items", "room for 2")

    def test_huge_count(self):
        self.assert_bad(write_file(self.path("huge.bt"), code=11, count=2**63 - 1, capacity_bytes=64), "claims")

    def test_count_filling_the_file_exactly(self):
        path = write_file(self.path("exact.bt"), struct.pack("<2i", 7, 8), code=6, count=2)
        self.assertEqual(listmmf.read_header(path).count, 2)
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                self.assertEqual(plain(listmmf.open_items(path)), [7, 8])

    @staticmethod
    def _truncate(path, length):
        os.truncate(path, length)
        return path


class ItemTests(TempDirTestCase):
    STANDARD = {
        2: [-128, -1, 0, 1, 127],
        3: [0, 1, 128, 255],
        4: [-32768, -1, 0, 32767],
        5: [0, 1, 65535],
        6: [-2**31, -1, 0, 2**31 - 1],
        7: [0, 1, 2**32 - 1],
        8: [-2**63, -1, 0, 2**63 - 1],
        9: [0, 1, 2**63, 2**64 - 1],
        10: [0.0, -0.0, 1.5, -3.4028234663852886e38, struct.unpack("<f", struct.pack("<f", 0.1))[0],
             1.401298464324817e-45],
        11: [0.0, 0.1, -1.7976931348623157e308, 5e-324, 2.0 / 3.0],
        12: [0, 638458560000000000, 3155378975999999999],
        13: [-2**31, 0, 1710198042, 2**31 - 1],
    }

    def write_values(self, code, values, name=None):
        fmt = "<%d%s" % (len(values), _FORMATS[code])
        path = self.path(name or "code%d.bt" % code)
        return write_file(path, struct.pack(fmt, *values), code=code, count=len(values), capacity_bytes=100)

    def test_standard_types(self):
        for code, values in self.STANDARD.items():
            path = self.write_values(code, values)
            for name in BACKENDS:
                with self.subTest(code=code, backend=name), backend(name):
                    items = listmmf.open_items(path)
                    self.assertEqual(len(items), len(values))
                    self.assertEqual(plain(items), values)
                    self.assertTrue(is_read_only(items))

    def test_stdlib_items_are_memoryviews_of_the_right_format(self):
        for code, fmt in _FORMATS.items():
            path = self.write_values(code, self.STANDARD[code])
            with self.subTest(code=code), backend("stdlib"):
                items = listmmf.open_items(path)
                self.assertIsInstance(items, memoryview)
                self.assertEqual(items.format, fmt)
                with self.assertRaises(TypeError):
                    items[0] = 0

    def test_empty_list(self):
        path = write_file(self.path("none.bt"), code=8, count=0, capacity_bytes=64)
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                self.assertEqual(plain(listmmf.open_items(path)), [])

    def test_count_is_read_once(self):
        path = self.write_values(6, [1, 2, 3, 4])
        with open(path, "r+b") as f:
            f.seek(8)
            f.write(struct.pack("<q", 2))
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                items = listmmf.open_items(path)
                with open(path, "r+b") as f:  # a writer publishes two more items after the reader opened
                    f.seek(8)
                    f.write(struct.pack("<q", 4))
                self.assertEqual(plain(items), [1, 2])
                with open(path, "r+b") as f:
                    f.seek(8)
                    f.write(struct.pack("<q", 2))

    def test_odd_widths(self):
        cases = {
            14: (3, True, [-1, 8388607, -8388608, 0, 1, -2]),
            15: (5, True, [-1, 2**39 - 1, -2**39, 0x0102030405]),
            16: (6, True, [-1, 2**47 - 1, -2**47, 12345678901]),
            17: (7, True, [-1, 2**55 - 1, -2**55, -12345678901]),
            18: (3, False, [0, 1, 8388608, 16777215]),
            19: (5, False, [0, 2**39, 2**40 - 1]),
            20: (6, False, [0, 2**47, 2**48 - 1]),
            21: (7, False, [0, 2**55, 2**56 - 1]),
        }
        for code, (width, signed, values) in cases.items():
            payload = b"".join(v.to_bytes(width, "little", signed=signed) for v in values)
            path = write_file(self.path("odd%d.bt" % code), payload, code=code, count=len(values), capacity_bytes=99)
            self.assertEqual(listmmf.read_header(path).item_size, width)
            for name in BACKENDS:
                with self.subTest(code=code, backend=name), backend(name):
                    self.assertEqual(plain(listmmf.open_items(path)), values)

    def test_odd_width_count_past_end(self):
        path = write_file(self.path("odd-past.bt"), b"\xff" * 8, code=14, count=3)
        with self.assertRaisesRegex(listmmf.ListMmfError, "claims 3 items of 3 bytes"):
            listmmf.open_items(path)

    def test_undescribed_struct_and_bit_are_refused(self):
        for code, name, problem in ((0, "AnyStruct", "need their description"), (1, "Bit", "not supported by this reader")):
            path = write_file(self.path("code%d.bt" % code), b"\xff" * 64, code=code, count=5)
            header = listmmf.read_header(path)
            self.assertEqual((header.type_name, header.item_size, header.count), (name, None, 5))
            for backend_name in BACKENDS:
                with self.subTest(code=code, backend=backend_name), backend(backend_name):
                    with self.assertRaisesRegex(listmmf.ListMmfError, name + ".*" + problem):
                        listmmf.open_items(path)

    def test_unix_seconds(self):
        # -2**31 is the existing library's DateTime.MinValue; -2**31 + 1 is a real time in 1901.
        path = self.write_values(13, [-2**31, -2**31 + 1, 0, 1710198042, -1, 2**31 - 1])
        expected = [datetime.datetime(1, 1, 1), datetime.datetime(1901, 12, 13, 20, 45, 53),
                    datetime.datetime(1970, 1, 1), datetime.datetime(2024, 3, 11, 23, 0, 42),
                    datetime.datetime(1969, 12, 31, 23, 59, 59), datetime.datetime(2038, 1, 19, 3, 14, 7)]
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                self.assertEqual(as_datetimes(listmmf.open_times(path)), expected)

    def test_datetime_ticks(self):
        def ticks(dt):
            return (dt - datetime.datetime(1, 1, 1)) // datetime.timedelta(microseconds=1) * 10

        noon = datetime.datetime(2024, 3, 12, 12, 0, 0, 123456)
        path = self.write_values(12, [0, ticks(noon) + 7, ticks(datetime.datetime(1969, 12, 31, 23, 59, 59)) + 9,
                                      3155378975999999999])
        expected = [datetime.datetime(1, 1, 1), noon,  # the 7th digit (100 ns) is dropped
                    datetime.datetime(1969, 12, 31, 23, 59, 59), datetime.datetime(9999, 12, 31, 23, 59, 59, 999999)]
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                self.assertEqual(as_datetimes(listmmf.open_times(path)), expected)

    @unittest.skipIf(listmmf.np is None, "needs numpy")
    def test_ticks_that_fit_in_nanoseconds_keep_every_tick_as_to_pandas_does(self):
        ticks = 638457840001234567
        times = listmmf.open_times(self.write_values(12, [ticks]))
        self.assertEqual(str(times.dtype), "datetime64[ns]")
        self.assertEqual(int(times.astype("int64")[0]), (ticks - 621355968000000000) * 100)

    def test_ticks_outside_the_datetime_range(self):
        for value in (-1, 3155378976000000000):
            path = self.write_values(12, [0, value], name="bad-ticks.bt")
            for name in BACKENDS:
                with self.subTest(ticks=value, backend=name), backend(name):
                    with self.assertRaisesRegex(listmmf.ListMmfError, "item 1 is .* ticks, outside"):
                        listmmf.open_times(path)

    def test_open_times_refuses_other_types(self):
        path = self.write_values(8, [1, 2])
        with self.assertRaisesRegex(listmmf.ListMmfError, "Int64 items \\(code 8\\), not times"):
            listmmf.open_times(path)

    def test_repository_sample(self):
        path = os.path.join(_REPO, "data-samples", "MES-2024-03-12-timestamps.bt")
        if not os.path.exists(path):
            self.skipTest("data-samples/MES-2024-03-12-timestamps.bt is not in this checkout")
        header = listmmf.read_header(path)
        self.assertEqual((header.code, header.count, header.file_length), (13, 338754, 2 * 1024 * 1024))
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                times = as_datetimes(listmmf.open_times(path))
                self.assertEqual(len(times), 338754)
                self.assertTrue(all(a <= b for a, b in zip(times, times[1:])))
                self.assertGreaterEqual(times[0], datetime.datetime(2024, 3, 11, 23, 0))  # 17:00 CT (UTC-6)
                self.assertLess(times[-1], datetime.datetime(2024, 3, 12, 22, 0))  # 16:00 CT


class CommandLineTests(TempDirTestCase):
    def run_cli(self, *paths):
        return subprocess.run([sys.executable, os.path.join(_MODULE_DIR, "listmmf.py"), *paths],
                              capture_output=True, text=True, timeout=60)

    def test_good_file(self):
        path = write_file(self.path("t.bt"), struct.pack("<12i", *range(12)), code=13, count=12, capacity_bytes=64)
        result = self.run_cli(path)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        lines = result.stdout.splitlines()
        self.assertIn("UnixSeconds (code 13)", lines[0])
        self.assertIn("count 12", lines[0])
        self.assertEqual(lines[1], "  [0] 1970-01-01 00:00:00  (0)")
        self.assertEqual(lines[6], "  ...")
        self.assertEqual(lines[-1], "  [11] 1970-01-01 00:00:11  (11)")
        self.assertEqual(len(lines), 12)

    def test_bad_file(self):
        good = write_file(self.path("good.bt"), struct.pack("<2d", 1.5, 2.5), code=11, count=2)
        bad = write_file(self.path("bad.bt"), code=99)
        result = self.run_cli(good, bad)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
        self.assertIn(bad, result.stderr)
        self.assertIn("data-type code 99", result.stderr)
        self.assertIn("[1] 2.5", result.stdout)

    def test_any_struct_file_shows_its_header(self):
        result = self.run_cli(write_file(self.path("s.bt"), b"\0" * 32, code=0, count=2))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("items not shown: AnyStruct items need their description", result.stdout)


try:
    import pandas  # noqa: F401  (only to know whether to_pandas can be tested)
    _HAS_PANDAS = True
except ImportError:
    _HAS_PANDAS = False


class TableTests(TempDirTestCase):
    """``to_pandas`` over hand-made table folders: a manifest and one ListMmf file per column."""

    def write_table(self, rows, price_count=None, utc=None):
        os.mkdir(self.path("ticks"))
        manifest = {
            "format": "ListMmf.TimeSeriesTable", "version": 1, "order": "AscendingOrEqual",
            **({} if utc is None else {"timesAreUtc": utc}),
            "time": {"name": "time", "type": "UnixSeconds", "file": "time.mmf"},
            "columns": [{"name": "price", "type": "Double", "file": "price.mmf"}],
        }
        with open(self.path("ticks/table.json"), "w") as f:
            json.dump(manifest, f)
        seconds = [1704187800 + i for i in range(rows)]
        prices = [4500 + i * 0.25 for i in range(rows if price_count is None else price_count)]
        write_file(self.path("ticks/time.mmf"), struct.pack(f"<{len(seconds)}i", *seconds), code=13, count=len(seconds))
        write_file(self.path("ticks/price.mmf"), struct.pack(f"<{len(prices)}d", *prices), code=11, count=len(prices))
        return self.path("ticks")

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_rows_become_a_data_frame(self):
        frame = listmmf.to_pandas(self.write_table(5))
        self.assertEqual(["time", "price"], list(frame.columns))
        self.assertEqual(5, len(frame))
        self.assertEqual(datetime.datetime(2024, 1, 2, 9, 30, 4), frame["time"].iloc[4].to_pydatetime())
        self.assertEqual(4501.0, frame["price"].iloc[4])

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_utc_tables_times_are_utc_aware_and_not_shifted(self):
        frame = listmmf.to_pandas(self.write_table(5, utc=True))
        self.assertEqual("UTC", str(frame["time"].dt.tz))
        self.assertEqual(datetime.datetime(2024, 1, 2, 9, 30, 4, tzinfo=datetime.timezone.utc),
                         frame["time"].iloc[4].to_pydatetime())

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_utc_tables_range_takes_aware_bounds_and_keeps_its_zone(self):
        frame = listmmf.to_pandas(self.write_table(10, utc=True), start="2024-01-02T11:30:03+02:00",
                                  end=datetime.datetime(2024, 1, 2, 9, 30, 5, tzinfo=datetime.timezone.utc))
        self.assertEqual([4500.75, 4501.0], list(frame["price"]))
        self.assertEqual("UTC", str(frame["time"].dt.tz))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_times_of_no_recorded_zone_are_naive(self):
        for utc in (False, None):
            with self.subTest(timesAreUtc=utc):
                shutil.rmtree(self.path("ticks"), ignore_errors=True)
                self.assertIsNone(listmmf.to_pandas(self.write_table(2, utc=utc))["time"].dt.tz)

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_time_range_keeps_the_rows_from_start_up_to_end(self):
        folder = self.write_table(10)
        frame = listmmf.to_pandas(folder, start="2024-01-02T09:30:03", end=datetime.datetime(2024, 1, 2, 9, 30, 7))
        self.assertEqual([4500.75, 4501.0, 4501.25, 4501.5], list(frame["price"]))
        self.assertEqual(datetime.datetime(2024, 1, 2, 9, 30, 3), frame["time"].iloc[0].to_pydatetime())

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_range_between_two_times_starts_at_the_later_one(self):
        frame = listmmf.to_pandas(self.write_table(10), start="2024-01-02T09:30:02.5", end="2024-01-02T09:30:04.5")
        self.assertEqual([4500.75, 4501.0], list(frame["price"]))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_bounds_outside_what_nanoseconds_hold_do_not_wrap_around(self):
        folder = self.write_table(5)
        self.assertEqual(5, len(listmmf.to_pandas(folder, end="2300-01-01")))
        self.assertEqual(5, len(listmmf.to_pandas(folder, start="1600-01-01", end=datetime.datetime.max)))
        self.assertEqual(0, len(listmmf.to_pandas(folder, start="9999-12-31")))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_ticks_table_takes_bounds_of_any_year(self):
        folder = self.write_table(2)
        ticks = [638397846000000001, 638397846000000002]  # 2024-01-02 09:30:00 plus 100 and 200 ns
        write_file(self.path("ticks/time.mmf"), struct.pack("<2q", *ticks), code=12, count=2)
        with open(self.path("ticks/table.json")) as f:
            manifest = json.load(f)
        manifest["time"]["type"] = "DateTime"
        with open(self.path("ticks/table.json"), "w") as f:
            json.dump(manifest, f)
        self.assertEqual(2, len(listmmf.to_pandas(folder, start="0001-01-01", end="9999-12-31")))
        self.assertEqual(0, len(listmmf.to_pandas(folder, start="2300-01-01")))
        self.assertEqual([4500.25], list(listmmf.to_pandas(folder, start="2024-01-02T09:30:00.00000015")["price"]))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_column_named_alone_is_one_column_not_its_letters(self):
        self.assertEqual(["time", "price"], list(listmmf.to_pandas(self.write_table(3), columns="price").columns))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_table_of_no_order_is_refused_a_range(self):
        folder = self.write_table(3)
        with open(self.path("ticks/table.json")) as f:
            manifest = json.load(f)
        manifest["order"] = "None"
        with open(self.path("ticks/table.json"), "w") as f:
            json.dump(manifest, f)
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.to_pandas(folder, start="2024-01-02")
        self.assertIn("order is None", str(caught.exception))
        self.assertEqual(3, len(listmmf.to_pandas(folder)))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_columns_keep_only_the_value_columns_named(self):
        self.assertEqual(["time"], list(listmmf.to_pandas(self.write_table(3), columns=[]).columns))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_an_unknown_column_is_refused_naming_the_columns_there_are(self):
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.to_pandas(self.write_table(3), columns=["size"])
        self.assertIn("no value column 'size'; its value columns are price", str(caught.exception))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_ticks_keep_their_last_digit(self):
        folder = self.write_table(2)
        ticks = [638397846000000001, 638397846000000002]  # 2024-01-02 09:30:00 plus 100 and 200 ns
        write_file(self.path("ticks/time.mmf"), struct.pack("<2q", *ticks), code=12, count=2)
        with open(os.path.join(folder, "table.json")) as f:
            manifest = json.load(f)
        manifest["time"]["type"] = "DateTime"
        with open(os.path.join(folder, "table.json"), "w") as f:
            json.dump(manifest, f)
        frame = listmmf.to_pandas(folder)
        self.assertEqual(100, (frame["time"].iloc[1] - frame["time"].iloc[0]).value)
        self.assertEqual("2024-01-02 09:30:00.000000100", str(frame["time"].iloc[0]))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_values_past_the_published_rows_are_left_out(self):
        frame = listmmf.to_pandas(self.write_table(3, price_count=4))
        self.assertEqual(3, len(frame["price"]))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_value_column_behind_the_rows_is_damage(self):
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.to_pandas(self.write_table(3, price_count=2))
        self.assertIn("column 'price' holds 2 values, fewer than the table's 3 rows", str(caught.exception))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_folder_without_a_manifest_is_refused(self):
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.to_pandas(self.dir)
        self.assertIn("not a table folder", str(caught.exception))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_times_pandas_cannot_hold_are_kept_or_refused_never_a_pandas_error(self):
        # Found by HostileInputFuzzTests: pandas 1.x keeps times as nanoseconds, and its OutOfBoundsDatetime escaped
        # for DateTime.MinValue, which the C# library stores in a UnixSeconds column as -2**31.
        folder = self.write_table(2)
        write_file(self.path("ticks/time.mmf"), struct.pack("<2i", -2**31, 1704187800), code=13, count=2)
        try:
            frame = listmmf.to_pandas(folder)
        except listmmf.ListMmfError as error:
            self.assertTrue(pandas.__version__.startswith("1."), f"pandas {pandas.__version__} holds year 1: {error}")
            self.assertEqual(f"{self.path('ticks/time.mmf')}: the time column holds times outside 1677-2262, which "
                             f"pandas {pandas.__version__} cannot hold (it keeps times as nanoseconds; pandas 2 keeps "
                             f"them at their own resolution)", str(error))
        else:
            self.assertEqual(datetime.datetime(1, 1, 1), frame["time"].iloc[0].to_pydatetime())

    def test_without_pandas_the_error_says_what_is_missing(self):
        with mock.patch.dict(sys.modules, {"pandas": None}):
            with self.assertRaises(ImportError) as caught:
                listmmf.to_pandas(self.write_table(1))
        self.assertIn("to_pandas needs pandas", str(caught.exception))


try:
    import dask.dataframe  # noqa: F401  (only to know whether to_dask can be tested)
    _HAS_DASK = _HAS_PANDAS
except ImportError:
    _HAS_DASK = False


def text_entries(*values):
    """The bytes of a text column's file of values: each value's UTF-8 length (LEB128), then its UTF-8 bytes."""
    out = bytearray()
    for value in values:
        raw = value.encode("utf-8")
        length = len(raw)
        while True:
            out.append((length & 0x7F) | (0x80 if length >= 0x80 else 0))
            length >>= 7
            if length == 0:
                break
        out += raw
    return bytes(out)


class TextColumnTests(TempDirTestCase):
    """A text column: codes in a Byte, UInt16 or UInt32 file and its distinct values in a Byte file (the manifest's
    "codes" and "entries"), read as a pandas categorical; a damaged file of values is refused naming it."""

    def write_table(self, codes, entries, code_type="Byte", code=3, fmt="B"):
        folder = self.path("trades")
        os.makedirs(folder, exist_ok=True)
        seconds = range(1704187800, 1704187800 + len(codes))
        write_file(os.path.join(folder, "time.mmf"), struct.pack(f"<{len(codes)}i", *seconds), code=13, count=len(codes))
        write_file(os.path.join(folder, "exchange.mmf"), struct.pack(f"<{len(codes)}{fmt}", *codes), code=code, count=len(codes))
        write_file(os.path.join(folder, "exchange.text.mmf"), entries, code=3, count=len(entries))
        manifest = {
            "format": "ListMmf.TimeSeriesTable", "version": 2, "order": "AscendingOrEqual",
            "time": {"name": "time", "type": "UnixSeconds", "file": "time.mmf"},
            "columns": [{"name": "exchange", "type": "Text", "codes": code_type, "file": "exchange.mmf",
                         "entries": "exchange.text.mmf"}],
        }
        with open(os.path.join(folder, "table.json"), "w") as f:
            json.dump(manifest, f)
        return folder

    def change_manifest(self, folder, change):
        """Rewrites the manifest of ``folder`` after ``change`` has edited it (a dict)."""
        with open(os.path.join(folder, "table.json")) as f:
            manifest = json.load(f)
        change(manifest)
        with open(os.path.join(folder, "table.json"), "w") as f:
            json.dump(manifest, f)

    def test_values_are_read_in_the_order_they_first_came(self):
        folder = self.write_table([0], text_entries("Q", "N", "", "Ü" * 100))
        self.assertEqual(["Q", "N", "", "Ü" * 100], listmmf.read_text_entries(os.path.join(folder, "exchange.text.mmf")))

    def test_a_damaged_file_of_values_is_refused_naming_the_problem(self):
        cases = [(b"\x02\xc3\x28", "not UTF-8"), (text_entries("Q", "Q"), "repeats value 0"),
                 (b"\x09Q", "run past the file's end"), (b"\x81\x00", "shortest LEB128"), (b"\x80", "cut short"),
                 (b"\x81\x80\x80\x80\x10A", "shortest LEB128"), (b"\x81\x80\x80\x80\x80\x01", "more than five bytes")]
        for raw, problem in cases:
            with self.subTest(problem=problem):
                path = os.path.join(self.write_table([0], raw), "exchange.text.mmf")
                with self.assertRaises(listmmf.ListMmfError) as caught:
                    listmmf.read_text_entries(path)
                self.assertTrue(str(caught.exception).startswith(path + ": "), caught.exception)
                self.assertIn(problem, str(caught.exception))

    def test_a_text_column_whose_codes_file_has_another_type_is_refused(self):
        folder = self.write_table([0, 1], text_entries("Q", "N"), code_type="UInt16")
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._open_column(folder, listmmf._read_manifest(folder)[1][0], "column")
        self.assertIn("holds Byte items, but the table's table.json records UInt16", str(caught.exception))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_text_column_becomes_a_categorical(self):
        frame = listmmf.to_pandas(self.write_table([1, 0, 1, 2], text_entries("Q", "N", "P")))
        self.assertEqual("category", str(frame["exchange"].dtype))
        self.assertEqual(["Q", "N", "P"], list(frame["exchange"].cat.categories))
        self.assertEqual(["N", "Q", "N", "P"], list(frame["exchange"].astype(object)))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_uint32_codes_read_as_byte_codes_do(self):
        frame = listmmf.to_pandas(self.write_table([1, 0], text_entries("Q", "N"), "UInt32", 7, "I"))
        self.assertEqual(["N", "Q"], list(frame["exchange"].astype(object)))

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_code_no_value_has_is_refused_naming_the_row(self):
        folder = self.write_table([0, 3], text_entries("Q", "N"))
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.to_pandas(folder)
        self.assertIn("holds code 3 at row 1", str(caught.exception))

    @unittest.skipUnless(_HAS_DASK, "dask is not importable")
    def test_tables_of_different_values_become_one_dask_frame_of_the_right_values(self):
        first = self.write_table([1, 0, 1], text_entries("Q", "N"))
        os.rename(first, self.path("day1"))
        second = self.write_table([0, 1, 2], text_entries("P", "Q", "Z"))
        os.rename(second, self.path("day2"))
        frame = listmmf.to_dask([self.path("day1"), self.path("day2")])
        # The first table's values are not the frame's categories: dask is told they are known per partition only.
        self.assertFalse(frame["exchange"].cat.known)
        self.assertEqual(["N", "Q", "N", "P", "Q", "Z"], list(frame.compute()["exchange"].astype(object)))

    def test_a_version_1_manifest_with_a_text_column_is_refused(self):
        folder = self.write_table([0], text_entries("Q"))
        self.change_manifest(folder, lambda manifest: manifest.update(version=1))
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._read_manifest(folder)
        self.assertIn("is text, which a version 1 manifest does not hold", str(caught.exception))

    def test_a_values_file_that_climbs_out_of_the_folder_is_refused(self):
        folder = self.write_table([0], text_entries("Q"))
        self.change_manifest(folder, lambda manifest: manifest["columns"][0].update(entries="../x"))
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._read_manifest(folder)
        self.assertIn("cannot be in a file name", str(caught.exception))


class ManifestTests(TempDirTestCase):
    """A table's ``table.json`` as another user of a shared folder may have written it: every column's name and file
    name is a plain file name, as the C# library requires, so no read leaves the folder; the manifest's shape is
    checked before anything it names is opened. Each refusal is checked where the manifest is read
    (``_read_manifest``, without pandas) and through ``to_pandas`` and ``to_dask`` when they import."""

    def write_table(self, time=None, columns=None, **fields):
        """A table folder "ticks" with two rows, time.mmf and price.mmf, and a manifest whose time column, value
        columns and other fields may be replaced; returns its path."""
        folder = self.path("ticks")
        os.makedirs(folder, exist_ok=True)
        write_file(os.path.join(folder, "time.mmf"), struct.pack("<2i", 1704187800, 1704187801), code=13, count=2)
        write_file(os.path.join(folder, "price.mmf"), struct.pack("<2d", 4500.0, 4500.25), code=11, count=2)
        manifest = {
            "format": "ListMmf.TimeSeriesTable", "version": 1, "order": "AscendingOrEqual", "timesAreUtc": False,
            "time": time if time is not None else {"name": "time", "type": "UnixSeconds", "file": "time.mmf"},
            "columns": columns if columns is not None else [{"name": "price", "type": "Double", "file": "price.mmf"}],
        }
        manifest.update(fields)
        with open(os.path.join(folder, "table.json"), "w") as f:
            json.dump(manifest, f)
        return folder

    def price(self, file, name="price"):
        """The value columns of a table whose price column is stored in ``file``."""
        return [{"name": name, "type": "Double", "file": file}]

    def readers(self):
        readers = [("_read_manifest", listmmf._read_manifest)]
        if _HAS_PANDAS:
            readers.append(("to_pandas", listmmf.to_pandas))
        if _HAS_DASK:
            readers.append(("to_dask", lambda folder: listmmf.to_dask([folder])))
        return readers

    def assert_refused(self, folder, *words):
        """Every reader of the table raises ListMmfError naming the manifest and containing ``words``."""
        manifest = os.path.join(folder, "table.json")
        for name, read in self.readers():
            with self.subTest(reader=name):
                with self.assertRaises(listmmf.ListMmfError) as caught:
                    read(folder)
                message = str(caught.exception)
                self.assertTrue(message.startswith(manifest + ": "), message)
                for word in words:
                    self.assertIn(word, message)

    def test_a_manifest_of_plain_names_is_read(self):
        columns = [{"name": "bid size é", "type": "Int32", "file": "b" * 196 + ".mmf"},
                   {"name": "price", "type": "Double", "file": "price.mmf"}]
        folder = self.write_table(columns=columns)
        write_file(os.path.join(folder, "b" * 196 + ".mmf"), struct.pack("<2i", 5, 6), code=6, count=2)
        time, value_columns = listmmf._read_manifest(folder)
        self.assertEqual(("time", ["bid size é", "price"]), (time["name"], [c["name"] for c in value_columns]))

    def test_a_file_name_that_climbs_out_of_the_folder_is_refused(self):
        # A column file one folder up, which a reader joining the name unchecked would read.
        write_file(self.path("x"), struct.pack("<2d", 1.0, 2.0), code=11, count=2)
        self.assert_refused(self.write_table(columns=self.price("../x")), "'../x'", "cannot be in a file name")

    @unittest.skipUnless(hasattr(os, "O_NOFOLLOW") and hasattr(os, "symlink"), "needs O_NOFOLLOW and symbolic links")
    def test_a_column_file_that_is_a_symbolic_link_is_refused(self):
        # Another user's column behind the link: a reader following it would return that user's values as the column.
        write_file(self.path("other.mmf"), struct.pack("<2d", 1.0, 2.0), code=11, count=2)
        folder = self.write_table()
        os.remove(os.path.join(folder, "price.mmf"))
        os.symlink(self.path("other.mmf"), os.path.join(folder, "price.mmf"))
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._open_column(folder, self.price("price.mmf")[0], "column")
        self.assertIn("is a symbolic link", str(caught.exception))
        if _HAS_PANDAS:
            with self.assertRaises(listmmf.ListMmfError):
                listmmf.to_pandas(folder)

    def test_an_absolute_file_name_is_refused(self):
        folder = self.write_table(columns=self.price("/etc/passwd"))
        self.assert_refused(folder, "'/etc/passwd'", "cannot be in a file name")

    def test_a_file_name_with_a_separator_is_refused(self):
        folder = self.write_table(columns=self.price("a/b"))
        os.mkdir(os.path.join(folder, "a"))
        write_file(os.path.join(folder, "a", "b"), struct.pack("<2d", 1.0, 2.0), code=11, count=2)
        self.assert_refused(folder, "'a/b'", "cannot be in a file name")

    def test_a_file_name_with_a_backslash_is_refused(self):
        self.assert_refused(self.write_table(columns=self.price("a\\b")), "cannot be in a file name")

    def test_the_file_name_dot_is_refused(self):
        self.assert_refused(self.write_table(columns=self.price(".")), "'.'", "is not a file name")

    def test_the_file_name_dot_dot_is_refused(self):
        self.assert_refused(self.write_table(columns=self.price("..")), "'..'", "is not a file name")

    def test_the_time_columns_file_name_is_checked_too(self):
        write_file(self.path("time.mmf"), struct.pack("<2i", 1, 2), code=13, count=2)
        time = {"name": "time", "type": "UnixSeconds", "file": "../time.mmf"}
        self.assert_refused(self.write_table(time=time), "the time column", "cannot be in a file name")

    def test_an_empty_file_name_is_refused(self):
        self.assert_refused(self.write_table(columns=self.price("")), "is empty")

    def test_a_column_name_with_a_control_character_is_refused(self):
        folder = self.write_table(columns=self.price("price.mmf", name="pri\x1bce"))
        self.assert_refused(folder, "column name 'pri\\x1bce'")

    def test_a_file_name_with_a_lone_surrogate_is_refused(self):
        # "\udcff" would become the raw byte 0xFF in a Python path; no C# column file is named so.
        self.assert_refused(self.write_table(columns=self.price("\udcff.mmf")), "cannot be in a file name")

    def test_a_name_ending_in_a_dot_or_a_space_is_refused(self):
        for file in ("price.", "price "):
            with self.subTest(file=file):
                self.assert_refused(self.write_table(columns=self.price(file)), "ends with a space or a dot")

    def test_a_name_of_more_than_200_characters_is_refused(self):
        self.assert_refused(self.write_table(columns=self.price("p" * 201)), "longer than 200 characters")

    def test_a_file_name_the_table_uses_for_its_own_files_is_refused(self):
        for file in ("TABLE.json", "price.mmf.Writer-Lock", "price.mmf.listmmf.TMP"):
            with self.subTest(file=file):
                self.assert_refused(self.write_table(columns=self.price(file)), "its own files")

    def test_two_columns_of_one_file_ignoring_case_are_refused(self):
        columns = self.price("price.mmf") + [{"name": "size", "type": "Double", "file": "PRICE.mmf"}]
        self.assert_refused(self.write_table(columns=columns), "'PRICE.mmf' is already the file of value column 0")

    def test_two_columns_of_one_name_ignoring_case_are_refused(self):
        columns = self.price("price.mmf") + [{"name": "Price", "type": "Double", "file": "size.mmf"}]
        self.assert_refused(self.write_table(columns=columns), "'Price' is already the name of value column 0")

    def test_a_value_column_of_the_time_columns_file_is_refused(self):
        self.assert_refused(self.write_table(columns=self.price("Time.mmf")), "is already the file of the time column")

    def test_names_that_differ_only_by_a_full_case_mapping_are_two_names_as_in_dotnet(self):
        # .NET's OrdinalIgnoreCase upper-cases one character at a time: 'ß' stays 'ß', so 'ß' and 'SS' differ.
        columns = [{"name": "ß", "type": "Double", "file": "a.mmf"}, {"name": "SS", "type": "Double", "file": "b.mmf"}]
        _, value_columns = listmmf._read_manifest(self.write_table(columns=columns))
        self.assertEqual(["ß", "SS"], [c["name"] for c in value_columns])

    def test_a_manifest_that_is_not_an_object_is_refused(self):
        folder = self.write_table()
        with open(os.path.join(folder, "table.json"), "w") as f:
            json.dump([1, 2], f)
        self.assert_refused(folder, '"format"')

    def test_columns_that_are_not_a_list_are_refused(self):
        self.assert_refused(self.write_table(columns={"name": "price"}), '"columns" is missing or not a list')

    def test_a_column_that_is_not_an_object_is_refused(self):
        self.assert_refused(self.write_table(columns=["price.mmf"]), "value column 0 is not an object")

    def test_a_time_that_is_not_an_object_is_refused(self):
        self.assert_refused(self.write_table(time="time.mmf"), "the time column is not an object")

    def test_a_file_that_is_not_a_string_is_refused(self):
        self.assert_refused(self.write_table(columns=self.price(7)), '"file" is missing or not a string')

    def test_a_value_column_of_an_unknown_type_is_refused(self):
        self.assert_refused(self.write_table(columns=[{"name": "p", "type": "Decimal", "file": "p.mmf"}]), "'Decimal'")

    def test_an_unknown_order_is_refused(self):
        self.assert_refused(self.write_table(order="Descending"), '"order"')

    def test_a_version_of_true_is_not_version_1(self):
        self.assert_refused(self.write_table(version=True), '"version"')

    def test_a_deeply_nested_manifest_is_refused(self):
        folder = self.write_table()
        with open(os.path.join(folder, "table.json"), "w") as f:
            f.write("[" * 100000)
        self.assert_refused(folder, "nests too deeply")

    def test_a_manifest_over_the_size_limit_is_refused(self):
        folder = self.write_table()
        with open(os.path.join(folder, "table.json"), "a") as f:
            f.write(" " * listmmf.SIDE_FILE_LIMIT)
        self.assert_refused(folder, "more than the 1,048,576 bytes")

    def test_a_manifest_that_is_not_utf8_is_refused_without_quoting_it(self):
        folder = self.write_table()
        with open(os.path.join(folder, "table.json"), "wb") as f:
            f.write(b'{"secret": "\xff\xfe hunter2"}')
        self.assert_refused(folder, "not UTF-8")
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._read_manifest(folder)
        self.assertNotIn("hunter2", str(caught.exception))

    def test_a_manifest_that_is_not_json_is_refused_without_quoting_it(self):
        folder = self.write_table()
        with open(os.path.join(folder, "table.json"), "w") as f:
            f.write("root:x:0:0:hunter2:/root:/bin/bash\n")
        self.assert_refused(folder, "not valid JSON", "line 1, column 1")
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._read_manifest(folder)
        self.assertNotIn("hunter2", str(caught.exception))

    def test_a_column_file_the_manifest_names_that_does_not_exist_is_damage(self):
        # Found by HostileInputFuzzTests: FileNotFoundError escaped; the C# library calls the table damaged.
        folder = self.write_table()
        os.remove(os.path.join(folder, "price.mmf"))
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._open_column(folder, self.price("price.mmf")[0], "column")
        self.assertEqual(f"{folder}: the manifest names the column 'price', stored in 'price.mmf', which does not "
                         f"exist: the table is damaged", str(caught.exception))
        for name, read in self.readers()[1:]:
            with self.subTest(reader=name), self.assertRaisesRegex(listmmf.ListMmfError, "which does not exist"):
                read(folder).compute() if name == "to_dask" else read(folder)

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_column_file_of_another_type_than_the_manifest_records_is_refused(self):
        folder = self.write_table(columns=[{"name": "price", "type": "Int64", "file": "price.mmf"}])
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.to_pandas(folder)
        self.assertIn("holds Double items, but the table's table.json records Int64", str(caught.exception))


class LinkRuleTests(TempDirTestCase):
    """A symbolic link is followed only where it belongs to this user, to root, or to the folder's owner, as the C#
    library follows one: another member of a team folder cannot point a read at another file. A link of another
    user is made by root with lchown, so these run as root only."""

    def planted(self, target, name):
        link = self.path(name)
        os.symlink(target, link)
        os.lchown(link, 4242, 4242)
        return link

    @unittest.skipUnless(hasattr(os, "geteuid") and os.geteuid() == 0, "needs root, to give a link to another user")
    def test_a_link_another_user_planted_at_a_data_file_is_refused(self):
        target = self.path("private.bt")
        write_file(target, struct.pack("<2q", 1, 2), code=8, count=2)
        link = self.planted(target, "ES.bt")
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.read_header(link)
        self.assertIn("belongs to user", str(caught.exception))
        self.assertIn("uid 4242", str(caught.exception))

    @unittest.skipUnless(hasattr(os, "geteuid") and os.geteuid() == 0, "needs root, to give a link to another user")
    def test_a_table_folder_another_user_linked_is_refused(self):
        other = self.path("other-team")
        os.mkdir(other)
        with open(os.path.join(other, "table.json"), "w") as f:
            f.write("{}")
        link = self.planted(other, "nqTable")
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._read_manifest(link)
        self.assertIn("belongs to user", str(caught.exception))

    @unittest.skipUnless(hasattr(os, "symlink") and hasattr(os, "geteuid"), "needs symbolic links and user ids")
    def test_a_link_of_ones_own_is_followed(self):
        target = self.path("mine.bt")
        write_file(target, struct.pack("<2q", 1, 2), code=8, count=2)
        link = self.path("ES.bt")
        os.symlink(target, link)
        self.assertEqual(2, listmmf.read_header(link).count)


class SideFileTests(TempDirTestCase):
    """The small files read whole, a table's manifest and a version 1 file's description, and the data files, at
    names another user of a shared folder may have planted: a FIFO must not block the reader, a symbolic link at a
    side file's name is not followed (to /dev/zero it would read forever), and only regular files are read."""

    def table(self):
        folder = self.path("ticks")
        os.mkdir(folder)
        return folder

    def assert_error(self, error, path, *words):
        self.assertIsInstance(error, listmmf.ListMmfError)
        message = str(error)
        self.assertTrue(message.startswith(path + ": "), message)
        for word in words:
            self.assertIn(word, message)

    @unittest.skipUnless(hasattr(os, "mkfifo"), "no FIFOs here")
    def test_a_fifo_at_the_manifest_name_is_refused_without_waiting(self):
        manifest = os.path.join(self.table(), "table.json")
        os.mkfifo(manifest)
        error = call_with_deadline(self, lambda: listmmf._read_manifest(self.path("ticks")), release=manifest)
        self.assert_error(error, manifest, "not a regular file", "a FIFO")

    @unittest.skipUnless(hasattr(os, "O_NOFOLLOW") and os.path.exists("/dev/zero"), "needs O_NOFOLLOW and /dev/zero")
    def test_a_symbolic_link_to_dev_zero_at_the_manifest_name_is_refused(self):
        manifest = os.path.join(self.table(), "table.json")
        os.symlink("/dev/zero", manifest)
        error = call_with_deadline(self, lambda: listmmf._read_manifest(self.path("ticks")))
        self.assert_error(error, manifest, "is a symbolic link")

    def test_a_directory_at_the_manifest_name_is_refused(self):
        manifest = os.path.join(self.table(), "table.json")
        os.mkdir(manifest)
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf._read_manifest(self.path("ticks"))
        self.assert_error(caught.exception, manifest, "not a regular file (it is a directory)")

    @unittest.skipUnless(hasattr(os, "O_NOFOLLOW"), "needs O_NOFOLLOW")
    def test_a_symbolic_link_at_a_description_name_is_refused(self):
        # The link leads to a valid description, which a reader following it would return.
        path = write_file(self.path("s.bt"), b"\0" * 16, code=0, count=2)
        with open(self.path("elsewhere.json"), "w") as f:
            json.dump({"format": "listmmf-description", "version": 1, "itemType": "S", "itemSize": 8}, f)
        os.symlink(self.path("elsewhere.json"), path + listmmf.DESCRIPTION_SUFFIX)
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.read_description(path)
        self.assert_error(caught.exception, path + listmmf.DESCRIPTION_SUFFIX, "is a symbolic link")

    @unittest.skipUnless(hasattr(os, "mkfifo"), "no FIFOs here")
    def test_a_fifo_at_a_description_name_is_refused_without_waiting(self):
        path = write_file(self.path("s.bt"), b"\0" * 16, code=0, count=2)
        os.mkfifo(path + listmmf.DESCRIPTION_SUFFIX)
        description = path + listmmf.DESCRIPTION_SUFFIX
        error = call_with_deadline(self, lambda: listmmf.read_description(path), release=description)
        self.assert_error(error, description, "a FIFO")

    @unittest.skipUnless(hasattr(os, "mkfifo"), "no FIFOs here")
    def test_a_fifo_at_a_data_file_name_is_refused_without_waiting(self):
        path = self.path("list.bt")
        os.mkfifo(path)
        for call in (listmmf.read_header, listmmf.open_items):
            for name in BACKENDS:
                with self.subTest(call=call.__name__, backend=name), backend(name):
                    error = call_with_deadline(self, lambda: call(path), release=path)
                    self.assert_error(error, path, "not a regular file", "a FIFO")


class MalformedInputTests(TempDirTestCase):
    """Hand-made files of impossible sizes and descriptions of the wrong shape raise ListMmfError, never an error of
    the arithmetic or the parsing under it (ZeroDivisionError, RecursionError, TypeError, OverflowError)."""

    def assert_bad(self, call, path, *words, where=None):
        """``call(path)`` raises ListMmfError on both paths, naming ``where`` (``path`` when None) and ``words``."""
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                with self.assertRaises(listmmf.ListMmfError) as caught:
                    call(path)
                message = str(caught.exception)
                self.assertTrue(message.startswith((where or path) + ": "), message)
                for word in words:
                    self.assertIn(word, message)

    def describe(self, **fields):
        """A version 1 struct file of two 8-byte items and its description, with ``fields`` over the valid ones."""
        path = write_file(self.path("s.bt"), b"\0" * 16, code=0, count=2)
        description = {"format": "listmmf-description", "version": 1, "itemType": "S", "itemSize": 8,
                       "fields": [{"name": "a", "offset": 0, "size": 4, "type": "Int32"}]}
        description.update(fields)
        with open(path + listmmf.DESCRIPTION_SUFFIX, "w") as f:
            json.dump(description, f)
        return path

    def test_a_version_2_header_of_item_size_0_is_refused(self):
        path = write_v2(self.path("zero.bt"), code=0, item_size=0, count=1, payload=b"\0" * 16)
        self.assert_bad(listmmf.open_items, path, "items of 0 bytes")

    def test_a_sealed_header_of_a_count_beyond_int64_bytes_is_refused(self):
        path = write_sealed(self.path("huge.sealed"), code=11, item_size=8, count=2**61, codec=3, base=0, step=1.0)
        self.assert_bad(listmmf.open_items, path, "is impossible")

    def test_an_empty_version_2_file_of_no_capacity_has_no_items(self):
        path = write_v2(self.path("empty.bt"), code=6, item_size=4, count=0)
        self.assertEqual(4096, os.path.getsize(path))
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                items = listmmf.open_items(path)
                self.assertEqual([], plain(items))
                self.assertTrue(is_read_only(items))

    def test_a_version_2_file_that_ends_before_its_items_offset_has_no_items_on_both_paths(self):
        # Found by HostileInputFuzzTests: numpy gave no items (as C#, whose capacity is max(0, length - offset) /
        # size), the standard library refused, saying the file was "shorter than the 0 items" its header counts.
        path = write_v2(self.path("cut.bt"), code=12, item_size=8, count=0)
        os.truncate(path, 64)
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                items = listmmf.open_items(path)
                self.assertEqual([], plain(items))
                self.assertTrue(is_read_only(items))
                self.assertEqual([], as_datetimes(listmmf.open_times(path)))

    def test_a_sealed_decimal_block_of_step_zero_is_refused(self):
        # Decimals (codec 5) divide by a power of ten from 10 to 10^22; a step of 0 is no writer's.
        path = write_sealed(self.path("zero-step.sealed"), code=11, item_size=8, count=3, codec=5, base=5, step=0.0)
        self.assert_bad(listmmf.open_items, path, "is not a power of ten from 10 to 10^22")

    def test_a_sealed_single_tick_block_of_a_step_beyond_binary32_is_refused(self):
        path = write_sealed(self.path("huge-step.sealed"), code=10, item_size=4, count=2, codec=3, base=-7, step=1e300)
        self.assert_bad(listmmf.open_items, path, "is not a power of two that a Single holds")

    def test_a_deeply_nested_description_is_refused(self):
        path = write_file(self.path("s.bt"), b"\0" * 16, code=0, count=2)
        with open(path + listmmf.DESCRIPTION_SUFFIX, "w") as f:
            f.write("[" * 100000)
        self.assert_bad(listmmf.read_description, path, "nests too deeply", where=path + listmmf.DESCRIPTION_SUFFIX)

    def test_a_description_whose_fields_are_not_a_list_is_refused(self):
        path = self.describe(fields=5)
        self.assert_bad(listmmf.open_items, path, '"fields" is not a list', where=path + listmmf.DESCRIPTION_SUFFIX)

    def test_a_description_field_that_is_not_an_object_is_refused(self):
        path = self.describe(fields=[5])
        self.assert_bad(listmmf.open_items, path, "field 0 is not an object", where=path + listmmf.DESCRIPTION_SUFFIX)

    def test_a_description_of_item_size_0_is_refused(self):
        path = self.describe(itemSize=0, fields=[])
        self.assert_bad(listmmf.open_items, path, '"itemSize"', where=path + listmmf.DESCRIPTION_SUFFIX)

    def test_a_description_field_past_the_item_is_refused(self):
        path = self.describe(fields=[{"name": "a", "offset": 6, "size": 4, "type": "Int32"}])
        self.assert_bad(listmmf.open_items, path, "cannot hold field 0", where=path + listmmf.DESCRIPTION_SUFFIX)

    @unittest.skipIf(listmmf.np is None, "needs numpy")
    def test_an_array_field_of_no_elements_is_its_bytes(self):
        path = self.describe(fields=[{"name": "a", "offset": 0, "size": 8, "type": "Int32[0]"}])
        self.assertEqual("|V8", listmmf.open_items(path).dtype["a"].str)

    @unittest.skipIf(listmmf.np is None, "needs numpy")
    def test_two_description_fields_of_one_name_are_refused(self):
        path = self.describe(fields=[{"name": "a", "offset": 0, "size": 4, "type": "Int32"},
                                     {"name": "a", "offset": 4, "size": 4, "type": "Int32"}])
        with self.assertRaisesRegex(listmmf.ListMmfError, "names two fields alike"):
            listmmf.open_items(path)


# The fuzz stage (issue 63): hostile files built by hand, mutated with a fixed seed, fed to every entry point.

_FUZZ_EDGES = (0, 1, -1, 2, 3, 4, 7, 8, 15, 16, 17, 63, 64, 127, 128, 255, 1023, 1024, 1025, 4095, 4096, 4097, 8192,
               (1 << 20) - 64, 1 << 20, (1 << 20) + 4096, 2**15, 2**16, 2**24, 2**31 - 1, -2**31, 2**31, 2**32,
               2**32 + 1, 2**53, 2**56, 2**62, 2**63 - 1, -2**63, -2**62)
"""Values a fuzzed header field takes most often: the edges of the sizes, counts and offsets the reader checks."""

_FUZZ_BITS = {"B": (8, False), "H": (16, False), "i": (32, True), "I": (32, False), "q": (64, True),
              "Q": (64, False)}

_FUZZ_FLOATS = (0.0, -0.0, 1.0, -2.0, 0.25, 10.0, 1e22, 1e-320, 5e-324, 1e300, -1e300, float("inf"), float("-inf"),
                float("nan"), 2.0**-60, 3.0)

_FUZZ_JSON_VALUES = (
    0, 1, -1, 2, 7, 8, 16, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**63, 10**30, 1.5, -0.0, 1e308, 8.0, True, False,
    None, "", "x" * 300, "Int32", "Int32[3]", "Int32[0]", "Int32[2]", "Byte[999999999]", "Double[1]", "Decimal",
    "Guid", "DateTime[2]", "Half", "Char", "Boolean", "TimeSpan", "a\x00b", "\udcff", "\ud83d\ude00", "../x",
    "/etc/passwd", "a/b", "a\\b", "..", ".", "TABLE.json", "table.json", "price.mmf", "PRICE.MMF", "time.mmf",
    "size.mmf", "price.mmf.writer-lock", "x.listmmf.tmp", "price ", "price.", "pri\x1bce", "ß", "SS", "p" * 201,
    "UnixSeconds", "DateTime", "Double", "Single", "Int64", "Bit", "AnyStruct", "Int24", "None", "Ascending",
    "AscendingOrEqual", "Descending", "listmmf-description", "ListMmf.TimeSeriesTable", [], {}, [1, 2], [None],
    {"name": "x"}, {"name": "price", "type": "Double", "file": "price.mmf"},
    {"name": "a", "offset": 0, "size": 4, "type": "Int32"}, {"name": "b", "offset": 2147483647, "size": 1,
                                                             "type": "Byte"})
"""Values a fuzzed JSON slot takes: numbers at and past the Int32 edges, kinds the reader does not expect, names the
manifest check refuses, field types numpy may or may not take."""

_FUZZ_JSON_KEYS = ("format", "version", "order", "timesAreUtc", "time", "columns", "name", "type", "file",
                   "itemType", "itemSize", "fields", "offset", "size", "Format", "VERSION", "extra", "")


def _fuzz_signed(value, bits, signed):
    value %= 1 << bits
    return value - (1 << bits) if signed and value >> (bits - 1) else value


def _fuzz_number(rng, fmt, near=()):
    """A value for a header field of struct format ``fmt``: next to the field's right value (``near``), an edge, or
    random bits."""
    bits, signed = _FUZZ_BITS[fmt]
    pick = rng.random()
    if near and pick < 0.35:
        value = rng.choice(near) + rng.choice((-4096, -8, -1, 0, 1, 2, 8, 1024, 4096))
    elif pick < 0.8:
        value = rng.choice(_FUZZ_EDGES)
    else:
        value = rng.getrandbits(bits)
    return _fuzz_signed(value, bits, signed)


def _fuzz_field(rng, data, notes, name, offset, fmt, near=()):
    """Sets the field ``name`` (struct format ``fmt`` at ``offset`` of the bytearray ``data``) to a fuzzed value, when
    the data reaches that far, and notes it."""
    if offset < 0 or offset + struct.calcsize("<" + fmt) > len(data):
        return
    value = rng.choice(_FUZZ_FLOATS) if fmt == "d" else _fuzz_number(rng, fmt, near)
    struct.pack_into("<" + fmt, data, offset, value)
    notes.append(f"{name} (byte {offset:,}) = {value!r}")


def _fuzz_bytes(rng, data, notes, focus=0):
    """One byte-level mutation of the bytearray ``data``: a bit flipped, a byte set, the data cut, bytes appended,
    removed or inserted; at a place in its first ``focus`` bytes more often than not."""
    def place(extra=0):
        limit = len(data) + extra
        if limit <= 0:
            return 0
        return rng.randrange(min(focus, limit)) if focus and rng.random() < 0.6 else rng.randrange(limit)

    kind = rng.randrange(6)
    if kind == 0 and data:
        at, bit = place(), rng.randrange(8)
        data[at] ^= 1 << bit
        notes.append(f"bit {bit} of byte {at:,} flipped")
    elif kind == 1 and data:
        at, value = place(), rng.choice((0, 0xFF, 0x7F, 0x80, rng.randrange(256)))
        data[at] = value
        notes.append(f"byte {at:,} = {value:#04x}")
    elif kind == 2:
        length = place(1)
        del data[length:]
        notes.append(f"cut to {length:,} bytes")
    elif kind == 3:
        extra = rng.randbytes(rng.choice((1, 7, 64, 4096)))
        data += extra
        notes.append(f"{len(extra):,} random bytes appended")
    elif kind == 4 and data:
        at, length = place(), rng.randrange(1, 64)
        del data[at:at + length]
        notes.append(f"bytes {at:,} to {at + length:,} removed")
    else:
        at, extra = place(1), rng.randbytes(rng.randrange(1, 16))
        data[at:at] = extra
        notes.append(f"{len(extra)} random bytes inserted at byte {at:,}")


def _fuzz_short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _fuzz_json_value(rng):
    """A JSON value for a slot of a document: one of ``_FUZZ_JSON_VALUES``, a list or an object of them, or a list
    nested a few hundred deep."""
    pick = rng.random()
    if pick < 0.75:
        return copy.deepcopy(rng.choice(_FUZZ_JSON_VALUES))
    if pick < 0.85:
        return [copy.deepcopy(rng.choice(_FUZZ_JSON_VALUES)) for _ in range(rng.randrange(1, 5))]
    if pick < 0.95:
        return {rng.choice(_FUZZ_JSON_KEYS): copy.deepcopy(rng.choice(_FUZZ_JSON_VALUES)) for _ in range(3)}
    value = 0
    for _ in range(rng.choice((10, 200))):
        value = [value]
    return value


def _fuzz_json(rng, document, notes):
    """One structural mutation of a JSON document: a slot (an object's key or a list's index, at any depth) set to
    another value, removed, repeated or given another slot's value, or the document replaced; returns the document."""
    slots, stack = [], [(document, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, (dict, list)) and len(where) < 200:
            for key, child in (node.items() if isinstance(node, dict) else enumerate(node)):
                slots.append((node, key, f"{where}/{key}"))
                stack.append((child, f"{where}/{key}"))
    if not slots or rng.random() < 0.03:
        document = _fuzz_json_value(rng)
        notes.append(f"the document = {_fuzz_short(document)}")
        return document
    node, key, where = rng.choice(slots)
    kind = rng.randrange(6)
    if kind <= 2:
        node[key] = _fuzz_json_value(rng)
        notes.append(f"{where} = {_fuzz_short(node[key])}")
    elif kind == 3:
        del node[key]
        notes.append(f"{where} removed")
    elif kind == 4 and isinstance(node, list):
        node.append(copy.deepcopy(node[key]))
        notes.append(f"{where} repeated at the end of its list")
    elif kind == 4:
        new_key = rng.choice(_FUZZ_JSON_KEYS)
        node[new_key] = copy.deepcopy(node[key])
        notes.append(f"{where} copied to key {new_key!r}")
    else:
        other_node, other_key, other_where = rng.choice(slots)
        node[key] = copy.deepcopy(other_node[other_key])
        notes.append(f"{where} = the value of {other_where}")
    return document


def _fuzz_json_bytes(rng, document, notes, mutate_text):
    """The document as the bytes of a file: JSON, with a text-level mutation when ``mutate_text`` (a byte mutation,
    a number of 5,000 digits, NaN or Infinity, 1e400, a byte order mark, nesting 100,000 deep, bytes that are not
    UTF-8, a key given twice, something after the value)."""
    try:
        raw = json.dumps(document, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        raw, document = b"null", None
        notes.append("the document became null (json.dumps refused it)")
    if not mutate_text:
        return raw
    raw = bytearray(raw)
    kind = rng.randrange(9)
    if kind == 0:
        _fuzz_bytes(rng, raw, notes)
    elif kind == 1:
        raw = re.sub(rb"\d+", b"9" * 5000, raw, count=1)
        notes.append("a number of 5,000 digits")
    elif kind == 2:
        constant = rng.choice((b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400", b"1.0", b"0x10"))
        raw = re.sub(rb"-?\d+", constant, raw, count=1)
        notes.append(f"a number replaced by {constant.decode()}")
    elif kind == 3:
        raw = b"\xef\xbb\xbf" + raw
        notes.append("a byte order mark before the text")
    elif kind == 4:
        opener = rng.choice((b"[", b'{"a":', b'{"fields":['))
        raw = opener * 100000 + raw
        notes.append(f"{opener.decode()!r} 100,000 times before the text")
    elif kind == 5:
        at, junk = rng.randrange(len(raw) + 1), rng.choice((b"\xff\xfe", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80"))
        raw[at:at] = junk
        notes.append(f"bytes {junk!r}, not UTF-8, at byte {at:,}")
    elif kind == 6 and raw.rstrip().endswith(b"}"):
        key, value = rng.choice(_FUZZ_JSON_KEYS), rng.choice((b"2", b'"x"', b"null", b"[]", b"-1"))
        end = raw.rstrip().rindex(b"}")
        raw[end:end] = b', "' + key.encode() + b'": ' + value
        notes.append(f"key {key!r} given again, as {value.decode()}, at the end of the object")
    elif kind == 7:
        tail = rng.choice((b" x", b"\x00", b"}", b" {}", b"\n\n"))
        raw += tail
        notes.append(f"{tail!r} after the value")
    else:
        raw = raw[:rng.randrange(len(raw) + 1)]
        notes.append(f"the text cut to {len(raw):,} bytes")
    return bytes(raw)


def _fuzz_item_size(code):
    return 16 if code == 0 else listmmf.TYPES[code].size


def _fuzz_items(rng, code, count, sorted_times=True):
    """The bytes of ``count`` items of type ``code``: times near 2024 (ascending when ``sorted_times``), now and then
    an extreme one (DateTime.MinValue's -2**31, ticks past 9999 or negative); random bytes for every other type."""
    if code == 13:
        values = [1704187800 + 7 * i for i in range(count)]
        if values and rng.random() < 0.25:
            values[rng.randrange(count)] = rng.choice((-2**31, 2**31 - 1, 0, -1))
    elif code == 12:
        values = [638397846000000000 + 10**7 * i + rng.randrange(10) for i in range(count)]
        if values and rng.random() < 0.25:
            values[rng.randrange(count)] = rng.choice((0, 1, listmmf._MAX_TICKS, listmmf._MAX_TICKS + 1, -1,
                                                       2**63 - 1, -2**63, 400000000000000000))
    else:
        size = 1 if code == 1 else _fuzz_item_size(code)
        return rng.randbytes(count * size if code != 1 else (count + 7) // 8)
    if not sorted_times:
        rng.shuffle(values)
    return struct.pack(f"<{count}{'i' if code == 13 else 'q'}", *values)


_FUZZ_STRUCT = {"format": "listmmf-description", "version": 1, "itemType": "Tick", "itemSize": 16,
                "fields": [{"name": "time", "offset": 0, "size": 8, "type": "DateTime"},
                           {"name": "price", "offset": 8, "size": 4, "type": "Single"},
                           {"name": "size", "offset": 12, "size": 2, "type": "Int16"},
                           {"name": "flags", "offset": 14, "size": 2, "type": "Byte[2]"}],
                "order": "Ascending", "timesAreUtc": True}
"""The description of the struct files the fuzz stage builds: 16-byte items of four fields."""


def _fuzz_description(code):
    """A valid description of items of ``code``, as the C# library writes one."""
    if code == 0:
        return copy.deepcopy(_FUZZ_STRUCT)
    info = listmmf.TYPES[code]
    return {"format": "listmmf-description", "version": 1, "itemType": info.name, "itemSize": info.size,
            "order": "AscendingOrEqual", "timesAreUtc": False}


def _fuzz_reseal_v2(data):
    """Stores in the bytearray ``data`` (a version 2 file) the CRC-32 of its header as the reader computes it, over
    whatever its fields now hold, so that a mutation reaches the checks past the checksum."""
    if len(data) < 64:
        return
    length = struct.unpack_from("<i", data, 48)[0]
    fixed = bytearray(data[:64])
    for start, end in ((8, 20), (24, 44), (56, 64)):
        fixed[start:end] = bytes(end - start)
    description = bytes(data[64:64 + length]) if length > 0 else b""
    struct.pack_into("<I", data, 56, zlib.crc32(description, zlib.crc32(bytes(fixed))))


def _fuzz_v2(code, item_size, count, payload, description=b"", items_offset=4096, durable=None, session=None,
             state=0, capacity=0):
    """The bytes of a version 2 file: its header and description, sealed by their CRC-32, zeros up to
    ``items_offset``, the ``payload`` and ``capacity`` bytes of room."""
    fixed = bytearray(64)
    struct.pack_into("<iiqiiqQiii", fixed, 0, 2, code, count, state, items_offset,
                     count if durable is None else durable, listmmf._BOOT_SESSION if session is None else session,
                     3, item_size, len(description))
    data = bytearray(fixed + description)
    data += bytes(max(0, items_offset - len(data))) + payload + b"\xa5" * capacity
    _fuzz_reseal_v2(data)
    return data


def _fuzz_packed(values, width):
    """The bytes of ``values`` packed integers of ``width`` bits, padding included (docs/file-format.md)."""
    return -(-values * width // 64) * 8 + 8


_FUZZ_SEALED_CODECS = {0: (0,), 10: (0, 3, 4, 5, 6, 9, 10), 11: (0, 3, 4, 5, 6, 9, 10)}
"""The codecs of a sealed block for each code (the other integer codes: 0, 1, 2, 7, 8 and 11)."""


def _fuzz_pack(numbers, width):
    """``numbers`` packed at ``width`` bits each, with the packing's padding (docs/file-format.md)."""
    bits = 0
    for index, number in enumerate(numbers):
        bits |= number << (index * width)
    return bits.to_bytes(_fuzz_packed(len(numbers), width), "little")


def _fuzz_sealed_block(rng, code, values):
    """[codec, width, base, first, step, payload, first item] of a sealed block of ``values`` items of ``code`` that
    keeps every rule of docs/file-format.md ("What a reader checks"): a codec the code takes, a width, base and step
    a writer might choose, random offsets within them, and the block's first item for the directory."""
    size = _fuzz_item_size(code)
    codec = rng.choice(_FUZZ_SEALED_CODECS.get(code, (0, 1, 2, 7, 8, 11)))
    if codec == 0:
        payload = rng.randbytes(values * size)
        return [0, 0, 0, 0, 0.0, payload, payload[:size]]
    floats = code in (10, 11)
    signed = code in listmmf._SEALED_SIGNED or floats
    if floats:
        limit = (1 << (24 if code == 10 else 53)) - 1
        low, high = -limit, limit
    else:
        low, high = (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1) if signed else (0, (1 << (8 * size)) - 1)
    widest = min(56, (high - low).bit_length() - 1)
    width = rng.choice([w for w in (0, 1, 3, 8, 13, 24, 32, 56) if w <= widest] or [0])
    offsets = [rng.getrandbits(width) for _ in range(values)]
    high_width, positions = 0, []
    if codec == 7:
        width = min(width, widest - 1)
        offsets = [offset & ((1 << width) - 1) for offset in offsets]
        high_width = rng.randint(1, min(56, widest - width, 64 - width))
        positions = sorted(rng.sample(range(values), rng.randint(1, min(values, 8))))
    step = 2.0 ** rng.randint(-20, 4) if codec in (3, 4, 9) else 10.0 ** rng.randint(1, 10) if codec in (5, 6, 10) else 0.0
    if codec in (2, 4, 6):
        offsets[0] = 0
        # Integer deltas wrap as every reader takes them; a float block's integers stay in range at every step.
        if floats:
            width = min(width, 8)
            offsets = [offset & ((1 << width) - 1) for offset in offsets]
            base = rng.randint(-(1 << width), 0)
            first = rng.randint(low - (values - 1) * base, high - (values - 1) * ((1 << width) - 1))
        else:
            base, first = rng.randint(low, high), _fuzz_signed(rng.randint(low, high), 64, True)
    elif codec == 11:
        # A step from 2 that keeps the frame's top in range: its width is narrowed first where the range is small.
        width = min(width, widest - 1)
        offsets = [offset & ((1 << width) - 1) for offset in offsets]
        step = rng.randint(2, max(2, min(10 ** 6, (high - low) // max(1, (1 << width) - 1))))
        base = rng.randint(low, high - step * ((1 << width) - 1))
        first = 0
    else:
        base = rng.randint(low, high - (1 << (width + high_width)) + 1)
        first = 0
    highs = [rng.randint(1, (1 << high_width) - 1) for _ in positions]
    payload = _fuzz_pack(offsets, width)
    if codec == 7:
        payload += _fuzz_pack(positions, 10) + _fuzz_pack(highs, high_width)
        first = len(positions) | high_width << 16
    u0 = offsets[0] | (dict(zip(positions, highs)).get(0, 0) << width)
    if codec in (8, 9, 10):
        # Entries ascending from 0 within the frame's width, and indexes naming them: the header's width is the indexes'.
        entries = [0] + sorted(rng.sample(range(1, 1 << width), min(rng.randint(0, 15), (1 << width) - 1, values - 1)))
        index_width = (len(entries) - 1).bit_length()
        indexes = [rng.randrange(len(entries)) for _ in range(values)]
        payload = _fuzz_pack(indexes, index_width) + _fuzz_pack(entries, width)
        first, u0, width = len(entries) | width << 16, entries[indexes[0]], index_width
    k0 = first if codec in (2, 4, 6) else _fuzz_signed(base + u0 * (step if codec == 11 else 1), 64, True)
    if codec in (1, 3, 5, 11):
        first = k0
    if codec == 11:
        step = struct.unpack("<d", struct.pack("<q", step))[0]
    if floats:
        fmt = "<f" if code == 10 else "<d"
        value = k0 * step if codec in (3, 4, 9) else k0 / step
        item = struct.pack(fmt, value)
    else:
        item = _fuzz_signed(k0, 8 * size, False).to_bytes(size, "little")
    return [codec, width, _fuzz_signed(base, 64, True), first, step, payload, item]


def _fuzz_sealed(code, item_size, count, blocks, description=b"", blocks_offset=4096, state=0):
    """The bytes of a sealed file of ``count`` items of ``item_size`` bytes in ``blocks`` (as
    ``_fuzz_sealed_block`` gives them), laid out as docs/file-format.md says, every checksum right."""
    body, offsets = bytearray(), []
    for index, (codec, width, base, first, step, payload, _) in enumerate(blocks):
        values = min(1024, count - index * 1024)
        block = bytearray(struct.pack("<BBHIqqdI", codec, width, values & 0xFFFF, len(payload), base, first, step, 0)
                          + bytes(4) + payload)
        block += bytes(-len(block) % 8)
        offsets.append(blocks_offset + len(body))
        body += block
    directory = blocks_offset + len(body)
    offsets.append(directory)
    firsts = b"".join(block[6] for block in blocks)
    tail = firsts + bytes(-len(firsts) % 8) + struct.pack(f"<{len(offsets)}Q", *offsets)
    head = bytearray(128)
    struct.pack_into("<iiqiiq", head, 0, 3, code, count, state, blocks_offset, count)
    struct.pack_into("<ii", head, 44, item_size, len(description))
    struct.pack_into("<8siiqqI4xq", head, 64, b"LMSEALED", 1, 1024, len(blocks), directory, 0,
                     _fuzz_signed(count * item_size, 64, True))
    data = bytearray(head + description)
    data += bytes(max(0, blocks_offset - len(data))) + body + tail
    _fuzz_reseal_sealed(data, header=True, blocks=True, directory=True)
    return data


def _fuzz_reseal_sealed(data, header, blocks, directory):
    """Stores in the bytearray ``data`` (a sealed file) the checksums the reader checks, over whatever the fields now
    hold: each block's where the directory places it (``blocks``), the directory's (``directory``), the header's
    (``header``), in that order, as far as the fields let them be found."""
    if len(data) < 128:
        return
    count_of_blocks, at = struct.unpack_from("<qq", data, 80)
    size = struct.unpack_from("<i", data, 44)[0]
    if 0 <= count_of_blocks <= 4096 and 0 < size <= 4096 and 0 <= at <= len(data):
        start = at + -(-count_of_blocks * size // 8) * 8
        if blocks and start + 8 * (count_of_blocks + 1) <= len(data):
            for offset in struct.unpack_from(f"<{count_of_blocks}Q", data, start):
                if offset + 40 <= len(data):
                    payload = struct.unpack_from("<I", data, offset + 4)[0]
                    crc = zlib.crc32(bytes(data[offset + 40:offset + 40 + payload]), zlib.crc32(bytes(data[offset:offset + 32])))
                    struct.pack_into("<I", data, offset + 32, crc)
        if directory:
            struct.pack_into("<I", data, 96, zlib.crc32(bytes(data[at:])))
    if header:
        length = struct.unpack_from("<i", data, 48)[0]
        fixed = bytearray(data[:128])
        fixed[16:20], fixed[56:60] = bytes(4), bytes(4)
        description = bytes(data[128:128 + length]) if length > 0 else b""
        struct.pack_into("<I", data, 56, zlib.crc32(description, zlib.crc32(bytes(fixed))))


def _fuzz_item_bytes(header, kind, value):
    """The items a read returned (as ``HostileInputFuzzTests.stored`` keeps them), as the bytes they are stored as:
    odd widths encoded back, little-endian."""
    if kind == "list":
        return b"".join(v.to_bytes(header.item_size, "little", signed=header.code <= 17) for v in value)
    return value


class HostileInputFuzzTests(TempDirTestCase):
    """The fuzz stage of issue 63: hand-made files, each built valid as the other tests build them and then mutated,
    with a fixed seed, are fed to every entry point of the reader, which must return the right answer or refuse.

    What is fuzzed, per family (``COUNTS``): 400 table folders (their ``table.json`` mutated as a JSON tree and as
    text, their column files replaced, cut, of another type, unsorted or of extreme times); 400 version 1 files of
    every kind of item (the version, code and count fields set to edges and random values, bytes flipped, set, cut,
    removed, inserted, appended); 400 version 2 files (every header field, the description in the header mutated as
    JSON, the checksum recomputed over the mutation three times in four, so that it reaches the checks behind it);
    400 sealed files of none to three blocks of every codec with random bits as their packed values (every header,
    block and directory field, a bit of a payload, and the block, directory and header checksums each recomputed
    over the mutation four times in five); 200 version 1 struct files whose ``FILE.listmmf.json`` description is
    mutated as a JSON tree and as text. Then, at each name a reader opens (a data file, a description, a table's
    manifest, its time column and a value column): a FIFO, a symbolic link to /dev/zero, a directory, a symbolic link
    to a directory, an empty file, a symbolic link to a FIFO and a socket (35 cases); the command line is also run in
    its own process over every planted data file.

    Case ``i`` of family ``f`` draws from ``random.Random(f"63/{f}/{i}")`` alone (``SEED`` 63), so a failure names the
    case and its mutations, and ``build_case(f, i, folder)`` writes its files again to reproduce it.

    The entry points, under each backend (the standard library, and numpy when it imports): ``read_header``,
    ``open_items``, ``open_times``, ``read_description``, the command line's ``main``; ``_read_manifest``, each
    column through ``_open_column``, and ``to_pandas`` (whole, over a time range, one column) and ``to_dask``
    (every fourth table) when pandas and dask import. Each must return or raise ``ListMmfError`` whose message starts
    with the path of the file it refuses (the folder's, for a table); the command line must exit 0 or 1. Any other
    exception (TypeError, OverflowError, struct.error, a numpy or pandas error, a plain ValueError...) fails the test
    with the case's traceback. The one exception: a socket cannot be opened at all, and the open's ``OSError``
    (ENXIO) is what ``read_header`` documents ("Raises OSError if the file cannot be opened").

    Right answers: the unmutated files read whole; a version 1 or 2 file's items, whenever returned, are its bytes at
    the items offset, ``count`` items long; a sealed file's items are ``count`` long and, with numpy, the same from
    both backends (Doubles with every NaN alike; a sealed Single file's items not compared, since for a ``k`` of
    2**24 or more, which no encoder writes, numpy converts it to binary32 first, as the format says, and the standard
    library computes in binary64); every entry point refuses alike or returns alike under both backends (but struct
    items, which need numpy); a frame from ``to_pandas`` has the manifest's columns, the time file's count of rows,
    and the times and values of the column files; ``to_dask``'s frame is ``to_pandas``'s.

    Deadline: each case (all its entry points, both backends) runs in a thread given ``DEADLINE`` seconds (10); a
    FIFO's case then opens the FIFO for writing to release a reader blocked on it. Allocation: the peak of what
    ``tracemalloc`` traces during a case, above what was allocated before it, must stay under ``ALLOCATION_BOUND``
    (64 MiB); the files are at most a few tens of KiB, so a case near it is a defect (the largest peak seen is about
    1.1 MiB, json parsing a description nested 100,000 deep). tracemalloc sees Python's allocations and numpy's array
    buffers (numpy reports them to it); a file's mapping (mmap, numpy.memmap) is not an allocation and is not counted.
    The class runs in about 15 s on a 2-core machine.
    """

    SEED = 63
    COUNTS = {"table": 400, "v1": 400, "v2": 400, "sealed": 400, "description": 200}
    DEADLINE = 10.0
    ALLOCATION_BOUND = 64 << 20
    DASK_EVERY = 4

    def setUp(self):
        super().setUp()
        if not tracemalloc.is_tracing():
            tracemalloc.start()
            self.addCleanup(tracemalloc.stop)

    # -- the cases -------------------------------------------------------------------------------------------------

    @classmethod
    def build_case(cls, family, index, folder):
        """Writes case ``index`` of ``family`` into the empty folder ``folder``; returns (its mutations, the path the
        entry points read: the data file, or the table folder)."""
        rng = random.Random(f"{cls.SEED}/{family}/{index}")
        notes = []
        build = {"table": cls._build_table, "v1": cls._build_v1, "v2": cls._build_v2, "sealed": cls._build_sealed,
                 "description": cls._build_description}[family]
        return notes, build(rng, folder, notes)

    @staticmethod
    def _build_v1(rng, folder, notes, mutate=True):
        code = rng.choice((0, 1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 13, 14, 16, 18, 21))
        count = rng.choice((0, 1, 3, 17))
        items = _fuzz_items(rng, code, count)
        data = bytearray(struct.pack("<iiq", 0, code, count) + items + b"\xa5" * rng.choice((0, 5, 32)))
        path = os.path.join(folder, "list.bt")
        description = _fuzz_description(code) if code == 0 or rng.random() < 0.2 else None
        notes.append(f"version 1, code {code}, count {count}, {len(data):,} bytes"
                     + (", a description beside it" if description else ""))
        for _ in range(rng.randint(1, 3) if mutate else 0):
            kind = rng.randrange(6)
            if kind == 0:
                _fuzz_field(rng, data, notes, "version", 0, "i", (0, -1, 2, 3))
            elif kind == 1:
                _fuzz_field(rng, data, notes, "code", 4, "i", (code,))
            elif kind == 2:
                room = (len(data) - 16) // _fuzz_item_size(code) if code > 1 else len(data)
                _fuzz_field(rng, data, notes, "count", 8, "q", (count, room))
            elif kind == 3 and description is not None:
                description = _fuzz_json(rng, description, notes)
            else:
                _fuzz_bytes(rng, data, notes, focus=16)
        with open(path, "wb") as f:
            f.write(data)
        if description is not None:
            with open(path + listmmf.DESCRIPTION_SUFFIX, "wb") as f:
                f.write(_fuzz_json_bytes(rng, description, notes, False))
        return path

    @staticmethod
    def _build_description(rng, folder, notes, mutate=True):
        count = rng.choice((0, 1, 3))
        data = bytearray(struct.pack("<iiq", 0, 0, count) + rng.randbytes(16 * count) + b"\xa5" * 16)
        description = copy.deepcopy(_FUZZ_STRUCT)
        notes.append(f"version 1 struct file of {count} 16-byte items")
        text = False
        for _ in range(rng.randint(1, 3) if mutate else 0):
            pick = rng.random()
            if pick < 0.7:
                description = _fuzz_json(rng, description, notes)
            elif pick < 0.9:
                text = True
            else:
                _fuzz_field(rng, data, notes, "count", 8, "q", (count,))
        path = os.path.join(folder, "s.bt")
        with open(path, "wb") as f:
            f.write(data)
        with open(path + listmmf.DESCRIPTION_SUFFIX, "wb") as f:
            f.write(_fuzz_json_bytes(rng, description, notes, text))
        return path

    @staticmethod
    def _build_v2(rng, folder, notes, mutate=True):
        code = rng.choice((0, 3, 6, 8, 10, 11, 12, 13, 14, 21))
        size, count = _fuzz_item_size(code), rng.choice((0, 1, 3, 17))
        description = _fuzz_description(code) if code == 0 or rng.random() < 0.5 else None
        capacity = rng.choice((0, 8, 100))
        notes.append(f"version 2, code {code}, count {count}, capacity {capacity} bytes"
                     + (", a description in the header" if description else ""))
        raw_description, text = b"", False
        if description is not None and mutate and rng.random() < 0.3:
            for _ in range(rng.randint(1, 2)):
                if rng.random() < 0.8:
                    description = _fuzz_json(rng, description, notes)
                else:
                    text = True
        if description is not None:
            raw_description = _fuzz_json_bytes(rng, description, notes, text)
        session = None
        if mutate and rng.random() < 0.15:
            session = rng.choice((0, 1, rng.getrandbits(64)))
            notes.append(f"boot session {session:#x}: its durable count is read")
        data = _fuzz_v2(code, size, count, _fuzz_items(rng, code, count), raw_description, session=session,
                        capacity=capacity)
        fields = (("code", 4, "i", (code,)), ("count", 8, "q", (count,)), ("state", 16, "i", (0, -1)),
                  ("items offset", 20, "i", (4096,)), ("durable count", 24, "q", (count,)),
                  ("boot session", 32, "Q", (listmmf._BOOT_SESSION,)), ("generation", 40, "i", ()),
                  ("item size", 44, "i", (size,)), ("description length", 48, "i", (len(raw_description),)))
        for _ in range(rng.randint(1, 3) if mutate else 0):
            if rng.random() < 0.6:
                name, offset, fmt, near = rng.choice(fields)
                _fuzz_field(rng, data, notes, name, offset, fmt, near)
            else:
                _fuzz_bytes(rng, data, notes, focus=64 + len(raw_description))
        if mutate and rng.random() < 0.75:
            _fuzz_reseal_v2(data)
            notes.append("the header's checksum recomputed")
        path = os.path.join(folder, "list.bt")
        with open(path, "wb") as f:
            f.write(data)
        return path

    @staticmethod
    def _build_sealed(rng, folder, notes, mutate=True):
        code = rng.choice((0, 3, 6, 8, 9, 10, 11, 12, 13, 14, 17, 21))
        size, count = _fuzz_item_size(code), rng.choice((0, 1, 5, 1023, 1024, 1025, 2100))
        blocks = [_fuzz_sealed_block(rng, code, min(1024, count - i * 1024)) for i in range(-(-count // 1024))]
        description = _fuzz_description(code) if code == 0 or rng.random() < 0.3 else None
        notes.append(f"sealed, code {code}, count {count}, codecs {[block[0] for block in blocks]}, "
                     f"widths {[block[1] for block in blocks]}" + (", a description in the header" if description else ""))
        text = False
        if description is not None and mutate and rng.random() < 0.2:
            description = _fuzz_json(rng, description, notes)
            text = rng.random() < 0.3
        raw_description = _fuzz_json_bytes(rng, description, notes, text) if description is not None else b""
        data = _fuzz_sealed(code, size, count, blocks, raw_description)
        directory = struct.unpack_from("<q", data, 88)[0]
        firsts = -(-len(blocks) * size // 8) * 8
        for _ in range(rng.choice((1, 1, 2, 3)) if mutate else 0):
            pick = rng.random()
            if pick < 0.3:
                name, offset, fmt, near = rng.choice((
                    ("code", 4, "i", (code,)), ("count", 8, "q", (count,)), ("state", 16, "i", (0, -1)),
                    ("blocks offset", 20, "i", (4096,)), ("durable count", 24, "q", (count,)),
                    ("item size", 44, "i", (size,)), ("description length", 48, "i", (len(raw_description),)),
                    ("layout", 72, "i", (1,)), ("values per block", 76, "i", (1024,)),
                    ("blocks", 80, "q", (len(blocks),)), ("directory", 88, "q", (directory,)),
                    ("directory checksum", 96, "I", ()), ("raw bytes", 104, "q", (count * size,))))
                _fuzz_field(rng, data, notes, name, offset, fmt, near)
            elif pick < 0.6 and blocks and directory + firsts + 8 * len(blocks) <= len(data):
                block = rng.randrange(len(blocks))
                start = struct.unpack_from("<Q", data, directory + firsts + 8 * block)[0]
                name, offset, fmt, near = rng.choice((
                    ("codec", 0, "B", tuple(range(9))), ("width", 1, "B", (56, 57, 64)),
                    ("values", 2, "H", (1024,)), ("payload length", 4, "I", (len(blocks[block][5]),)),
                    ("base", 8, "q", ()), ("first", 16, "q", (1 << 16, 56 << 16, 57 << 16, 1 << 24)),
                    ("step", 24, "d", ()), ("checksum", 32, "I", ())))
                _fuzz_field(rng, data, notes, f"block {block}'s {name}", start + offset, fmt, near)
            elif pick < 0.7 and blocks and directory + firsts + 8 * len(blocks) <= len(data):
                # Random bits in a block's payload: with its checksum recomputed, other values to decode.
                block = rng.randrange(len(blocks))
                start = struct.unpack_from("<Q", data, directory + firsts + 8 * block)[0]
                at = start + 40 + rng.randrange(max(1, len(blocks[block][5])))
                if at < len(data):
                    data[at] ^= 1 << rng.randrange(8)
                    notes.append(f"a bit of block {block}'s payload flipped, at byte {at:,}")
            elif pick < 0.8 and blocks:
                entry = rng.randrange(len(blocks) + 1)
                _fuzz_field(rng, data, notes, f"directory offset {entry}", directory + firsts + 8 * entry, "Q",
                            (4096, directory, 0))
            else:
                _fuzz_bytes(rng, data, notes, focus=128)
        if mutate:
            header, block_sums, directory_sum = (rng.random() < 0.8 for _ in range(3))
            _fuzz_reseal_sealed(data, header, block_sums, directory_sum)
            notes.append("checksums recomputed: " + ", ".join(
                what for what, done in (("blocks", block_sums), ("directory", directory_sum), ("header", header))
                if done))
        path = os.path.join(folder, "list.sealed")
        with open(path, "wb") as f:
            f.write(data)
        return path

    @classmethod
    def _build_table(cls, rng, folder, notes, mutate=True):
        table = os.path.join(folder, "ticks")
        os.mkdir(table)
        time_code = rng.choice((12, 13))
        rows = rng.choice((0, 1, 2, 5, 33))
        files = {"time.mmf": (time_code, rows, _fuzz_items(rng, time_code, rows)),
                 "price.mmf": (11, rows, _fuzz_items(rng, 11, rows)),
                 "size.mmf": (6, rows, _fuzz_items(rng, 6, rows))}
        manifest = {"format": "ListMmf.TimeSeriesTable", "version": 1, "order": "AscendingOrEqual",
                    "timesAreUtc": rng.random() < 0.5,
                    "time": {"name": "time", "type": listmmf.TYPES[time_code].name, "file": "time.mmf"},
                    "columns": [{"name": "price", "type": "Double", "file": "price.mmf"},
                                {"name": "size", "type": "Int32", "file": "size.mmf"}]}
        notes.append(f"table of {rows} rows, times {listmmf.TYPES[time_code].name}")
        text = False
        built = {}
        for _ in range(rng.randint(1, 3) if mutate else 0):
            pick = rng.random()
            if pick < 0.45:
                manifest = _fuzz_json(rng, manifest, notes)
            elif pick < 0.55:
                text = True
            else:
                name = rng.choice(sorted(files))
                code, count, items = files[name]
                kind = rng.randrange(7)
                if kind == 0:
                    files[name] = (code, max(0, count - 1), items[:max(0, count - 1) * _fuzz_item_size(code)])
                    notes.append(f"{name} holds one item fewer")
                elif kind == 1:
                    other = rng.choice((3, 6, 8, 10, 11, 12, 13, 14))
                    files[name] = (other, count, _fuzz_items(rng, other, count))
                    notes.append(f"{name} holds code {other}")
                elif kind == 2 and code in (12, 13):
                    files[name] = (code, count, _fuzz_items(rng, code, count, sorted_times=False))
                    notes.append(f"{name}'s times shuffled")
                elif kind == 3:
                    size = _fuzz_item_size(code)
                    built[name] = _fuzz_v2(code, size, count, items)
                    notes.append(f"{name} is a version 2 file")
                elif kind == 4:
                    size = _fuzz_item_size(code)
                    built[name] = _fuzz_sealed(code, size, count, [
                        _fuzz_sealed_block(rng, code, min(1024, count - i * 1024)) for i in range(-(-count // 1024))])
                    notes.append(f"{name} is a sealed file")
                else:
                    data = bytearray(struct.pack("<iiq", 0, code, count) + items)
                    for _ in range(rng.randint(1, 2)):
                        if rng.random() < 0.5:
                            _fuzz_field(rng, data, notes, f"{name}'s count", 8, "q", (count,))
                        else:
                            _fuzz_bytes(rng, data, notes, focus=16)
                    built[name] = data
        for name, (code, count, items) in files.items():
            with open(os.path.join(table, name), "wb") as f:
                f.write(built.get(name) or struct.pack("<iiq", 0, code, count) + items)
        with open(os.path.join(table, "table.json"), "wb") as f:
            f.write(_fuzz_json_bytes(rng, manifest, notes, text))
        return table

    # -- running them --------------------------------------------------------------------------------------------

    def run_case(self, what, call, release=None):
        """Runs ``call()`` (a case's entry points) under the deadline, and fails naming ``what`` if it did not end in
        time, raised anything (``call`` catches the refusals it expects), or allocated past the bound."""
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        with warnings.catch_warnings():
            # A float block's step may overflow or make NaN, as IEEE 754 says: numpy warns of it; not a refusal.
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                error = call_with_deadline(self, call, self.DEADLINE, release)
            except self.failureException as failure:
                raise self.failureException(f"{what}: {failure}") from None
        peak = tracemalloc.get_traced_memory()[1] - before
        if error is not None:
            self.fail(f"{what}: raised {type(error).__name__}, neither an answer nor ListMmfError:\n"
                      + "".join(traceback.format_exception(error)))
        self.assertLess(peak, self.ALLOCATION_BOUND, f"{what}: allocated {peak:,} bytes at its peak")
        return peak

    @staticmethod
    def attempt(results, key, call, prefixes, unopenable=False):
        """Records in ``results[key]`` what ``call()`` returned, or its ListMmfError, whose message must start with
        one of ``prefixes``; with ``unopenable`` (a socket planted), also the OSError ENXIO of an open that cannot be
        made, as ``read_header`` documents. Any other exception propagates."""
        try:
            results[key] = ("returned", call())
        except listmmf.ListMmfError as error:
            message = str(error)
            if not message.startswith(prefixes):
                raise AssertionError(f"{key}'s refusal does not start with the file's path: {message[:300]}")
            results[key] = ("refused", message)
        except OSError as error:
            if not (unopenable and error.errno == errno.ENXIO):
                raise
            results[key] = ("unopenable", str(error))

    @staticmethod
    def stored(path):
        """The items ``open_items(path)`` returns, as (kind, value, item size) to compare and check: ("list", ints,
        None) for the odd widths (numpy's int64 array made a list), else (format or dtype, bytes, item size)."""
        items = listmmf.open_items(path)
        if isinstance(items, list) or 14 <= listmmf.read_header(path).code <= 21:
            return ("list", items if isinstance(items, list) else items.tolist(), None)
        if isinstance(items, memoryview):
            return (items.format, items.tobytes(), items.itemsize)
        return (str(items.dtype), items.tobytes(), items.dtype.itemsize)

    def read_data_file(self, path, unopenable=False):
        """Every entry point that reads the data file at ``path``, under each backend: {backend: {entry: result}}."""
        prefixes = (path + ": ", path + listmmf.DESCRIPTION_SUFFIX + ": ")
        results = {}

        def run():
            for name in BACKENDS:
                with backend(name):
                    got = results[name] = {}
                    for entry, call in (("read_header", listmmf.read_header), ("open_items", self.stored),
                                        ("open_times", lambda p: as_datetimes(listmmf.open_times(p))),
                                        ("read_description", listmmf.read_description)):
                        self.attempt(got, entry, lambda: call(path), prefixes, unopenable)
                    out, err = io.StringIO(), io.StringIO()
                    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                        status = listmmf.main([path])
                    got["main"] = ("exited", status, err.getvalue())

        return results, run

    def check_data_file(self, what, path, results):
        """The right answers of a data file's case (see the class's docstring)."""
        with open(path, "rb") as f:
            data = f.read()
        for name, got in results.items():
            _, status, errors = got["main"]
            self.assertIn(status, (0, 1), f"{what}: main under {name}")
            self.assertEqual(status == 1, errors.startswith(f"listmmf: {path}"), f"{what}: main under {name}: {errors}")
            if got["read_header"][0] != "returned":
                for entry in ("open_items", "open_times", "read_description"):
                    if entry != "read_description" or os.path.exists(path):
                        self.assertEqual("refused", got[entry][0], f"{what}: {entry} under {name}")
                continue
            header = got["read_header"][1]
            self.assertGreaterEqual(header.count, 0, what)
            if got["open_items"][0] == "returned":
                kind, value, size = got["open_items"][1]
                stored = _fuzz_item_bytes(header, kind, value)
                if kind == "list":
                    size = header.item_size
                elif header.item_size is None:  # a version 1 struct file: the description gives the size
                    self.assertEqual(got["read_description"][1]["itemSize"], size, f"{what}: {name}: item size")
                else:
                    self.assertEqual(header.item_size, size, f"{what}: {name}: open_items' item size")
                self.assertEqual(header.count * size, len(stored), f"{what}: {name}: open_items' length")
                if header.version != listmmf.SEALED_VERSION:
                    self.assertEqual(data[header.items_offset:header.items_offset + len(stored)], stored,
                                     f"{what}: {name}: open_items is not the file's items")
            if got["open_times"][0] == "returned":
                self.assertEqual(header.count, len(got["open_times"][1]), f"{what}: {name}: open_times' length")
        if len(results) < 2:
            return
        stdlib, numpy = results["stdlib"], results["numpy"]
        header = stdlib["read_header"][1] if stdlib["read_header"][0] == "returned" else None
        for entry in ("read_header", "open_items", "open_times", "read_description", "main"):
            if header is not None and header.code == 0 and entry in ("open_items", "main"):
                continue  # struct items need numpy: the standard library refuses them (or the command line skips them)
            a, b = stdlib[entry], numpy[entry]
            self.assertEqual(a[0], b[0], f"{what}: {entry} under the standard library: {str(a[-1])[:300]}; "
                                         f"under numpy: {str(b[-1])[:300]}")
            if entry == "main":
                self.assertEqual(a[1], b[1], f"{what}: main's exit status differs by backend")
            elif a[0] == "returned" and entry != "open_items":
                self.assertEqual(a[1], b[1], f"{what}: {entry} differs by backend")
            elif a[0] == "returned":
                self.assert_same_items(what, header, a[1], b[1])

    def assert_same_items(self, what, header, stdlib, numpy):
        np = listmmf.np
        left, right = _fuzz_item_bytes(header, *stdlib[:2]), _fuzz_item_bytes(header, *numpy[:2])
        if header.code in (10, 11) and header.version == listmmf.SEALED_VERSION:
            if header.code == 10:
                return  # see the class's docstring: binary32 arithmetic for a k no encoder writes
            left, right = np.frombuffer(left, "<f8"), np.frombuffer(right, "<f8")
            self.assertTrue(np.array_equal(np.isnan(left), np.isnan(right)), f"{what}: NaNs differ by backend")
            keep = ~np.isnan(left)
            left, right = left[keep].tobytes(), right[keep].tobytes()
        self.assertEqual(left, right, f"{what}: the items differ by backend")

    def run_data_family(self, family):
        for index in range(self.COUNTS[family]):
            folder = self.path(f"{family}-{index}")
            os.mkdir(folder)
            notes, path = self.build_case(family, index, folder)
            what = (f"{family} case {index} (HostileInputFuzzTests.build_case({family!r}, {index}, folder)): "
                    + "; ".join(notes))
            results, run = self.read_data_file(path)
            self.run_case(what, run)
            self.check_data_file(what, path, results)
            shutil.rmtree(folder)

    def read_table(self, folder, index, unopenable=False):
        """Every entry point that reads the table ``folder``: {entry: result}, right answers checked as it goes."""
        results = {}
        prefix = (folder + os.sep, folder + ": "), unopenable

        def run():
            self.attempt(results, "_read_manifest", lambda: listmmf._read_manifest(folder, with_order=True), *prefix)
            if results["_read_manifest"][0] == "returned":
                time, columns, _, _ = results["_read_manifest"][1]
                for name in BACKENDS:
                    with backend(name):
                        for column in [time] + columns:
                            self.attempt(results, f"_open_column {column['file']} {name}",
                                         lambda: listmmf._open_column(folder, column, "column")[0], *prefix)
            if not _HAS_PANDAS:
                return
            self.attempt(results, "to_pandas", lambda: listmmf.to_pandas(folder), *prefix)
            if results["to_pandas"][0] == "returned":
                self.check_frame(folder, results["to_pandas"][1])
            bounds = random.Random(f"{self.SEED}/bounds/{index}").choice((
                ("2024-01-02T09:30:01", "2024-01-02T09:30:30"), ("0001-01-01", "9999-12-31"),
                (datetime.datetime(2024, 1, 2, 9, 30, 2, tzinfo=datetime.timezone.utc), None),
                (None, "2024-01-02T09:30:03Z"), (listmmf.np.datetime64("2024-01-02T09:30:00.000000100"), None),
                ("1600-01-01", "2300-01-01")))
            self.attempt(results, "to_pandas range", lambda: listmmf.to_pandas(folder, *bounds), *prefix)
            self.attempt(results, "to_pandas price", lambda: listmmf.to_pandas(folder, columns="price"), *prefix)
            if _HAS_DASK and index % self.DASK_EVERY == 0:
                self.attempt(results, "to_dask", lambda: listmmf.to_dask([folder]).compute(scheduler="synchronous"),
                             *prefix)
                if results["to_dask"][0] == "returned" and results["to_pandas"][0] == "returned":
                    frame = results["to_dask"][1].drop(columns="table").reset_index(drop=True)
                    pandas.testing.assert_frame_equal(results["to_pandas"][1], frame)

        return results, run

    def check_frame(self, folder, frame):
        """A frame ``to_pandas`` returned holds the manifest's columns, the time file's rows and the files' values."""
        np = listmmf.np
        time, columns = listmmf._read_manifest(folder)
        time_path = os.path.join(folder, time["file"])
        self.assertEqual([time["name"]] + [c["name"] for c in columns], list(frame.columns))
        rows = listmmf.read_header(time_path).count
        self.assertEqual(rows, len(frame))
        times = frame[time["name"]]
        if times.dt.tz is not None:
            times = times.dt.tz_localize(None)
        self.assertTrue(np.array_equal(np.asarray(listmmf.open_times(time_path)).astype("datetime64[us]"),
                                       np.asarray(times).astype("datetime64[us]")), "the times")
        for column in columns:
            values = np.asarray(listmmf.open_items(os.path.join(folder, column["file"])))[:rows]
            self.assertEqual(values.tobytes(), np.asarray(frame[column["name"]]).tobytes(), column["name"])

    # -- the tests -----------------------------------------------------------------------------------------------

    def test_unmutated_base_files_are_read_whole(self):
        for family in ("v1", "v2", "sealed", "description"):
            for index in range(40):
                folder = self.path(f"base-{family}-{index}")
                os.mkdir(folder)
                notes = []
                build = {"v1": self._build_v1, "v2": self._build_v2, "sealed": self._build_sealed,
                         "description": self._build_description}[family]
                path = build(random.Random(f"{self.SEED}/base/{family}/{index}"), folder, notes, mutate=False)
                what = f"unmutated {family} file {index}: {'; '.join(notes)}"
                results, run = self.read_data_file(path)
                self.run_case(what, run)
                self.check_data_file(what, path, results)
                for name, got in results.items():
                    self.assertEqual("returned", got["read_header"][0], f"{what}: {got['read_header'][-1]}")
                    refused = got["open_items"][0] == "refused"
                    expected = got["read_header"][1].code == 1 or got["read_header"][1].code == 0 and name == "stdlib"
                    self.assertEqual(expected, refused, f"{what}: under {name}: {got['open_items'][-1]}")
                    self.assertEqual("returned", got["read_description"][0], what)
        for index in range(20):
            folder = self.path(f"base-table-{index}")
            os.mkdir(folder)
            table = self._build_table(random.Random(f"{self.SEED}/base/table/{index}"), folder, [], mutate=False)
            results, run = self.read_table(table, index)
            self.run_case(f"unmutated table {index}", run)
            self.assertEqual("returned", results["_read_manifest"][0], results["_read_manifest"][-1])

    def test_mutated_version_1_files_are_read_right_or_refused_in_time_and_memory(self):
        self.run_data_family("v1")

    def test_mutated_version_2_headers_are_read_right_or_refused_in_time_and_memory(self):
        self.run_data_family("v2")

    def test_mutated_sealed_files_are_read_right_or_refused_in_time_and_memory(self):
        self.run_data_family("sealed")

    def test_mutated_version_1_descriptions_are_read_right_or_refused_in_time_and_memory(self):
        self.run_data_family("description")

    def test_mutated_manifests_and_columns_are_read_right_or_refused_in_time_and_memory(self):
        for index in range(self.COUNTS["table"]):
            folder = self.path(f"table-{index}")
            os.mkdir(folder)
            notes, table = self.build_case("table", index, folder)
            what = f"table case {index} (HostileInputFuzzTests.build_case('table', {index}, folder)): " + "; ".join(notes)
            results, run = self.read_table(table, index)
            self.run_case(what, run)
            shutil.rmtree(folder)

    # -- special files at every name -------------------------------------------------------------------------------

    def plant(self, path, kind):
        """Puts a file of ``kind`` at ``path`` (replacing what is there); returns the FIFO to release, if any."""
        if os.path.lexists(path):
            os.remove(path)
        if kind == "a FIFO":
            os.mkfifo(path)
            return path
        if kind == "a symbolic link to /dev/zero":
            os.symlink("/dev/zero", path)
        elif kind == "a directory":
            os.mkdir(path)
        elif kind == "a symbolic link to a directory":
            os.symlink(self.dir, path)
        elif kind == "an empty file":
            open(path, "wb").close()
        elif kind == "a symbolic link to a FIFO":
            fifo = path + ".fifo"
            os.mkfifo(fifo)
            os.symlink(fifo, path)
            return fifo
        else:
            with socket.socket(socket.AF_UNIX) as listener:
                listener.bind(path)
        return None

    SPECIAL_KINDS = ("a FIFO", "a symbolic link to /dev/zero", "a directory", "a symbolic link to a directory",
                     "an empty file", "a symbolic link to a FIFO", "a socket")

    @unittest.skipUnless(hasattr(os, "mkfifo") and hasattr(socket, "AF_UNIX") and os.path.exists("/dev/zero"),
                         "needs FIFOs, Unix sockets and /dev/zero")
    def test_special_files_at_every_name_are_refused_without_blocking(self):
        planted_data_files = []
        for number, kind in enumerate(self.SPECIAL_KINDS):
            for name in ("data file", "description", "manifest", "time column", "value column"):
                what = f"{kind} at the {name}'s name"
                folder = self.path(f"special-{number}-{name.replace(' ', '-')}")
                os.mkdir(folder)
                if name in ("data file", "description"):
                    path = write_file(os.path.join(folder, "s.bt"), b"\0" * 32, code=0, count=2)
                    with open(path + listmmf.DESCRIPTION_SUFFIX, "w") as f:
                        json.dump({"format": "listmmf-description", "version": 1, "itemType": "S", "itemSize": 16}, f)
                    planted = path if name == "data file" else path + listmmf.DESCRIPTION_SUFFIX
                    release = self.plant(planted, kind)
                    results, run = self.read_data_file(path, unopenable=kind == "a socket")
                    self.run_case(what, run, release)
                    refusing = ("read_header", "open_items", "read_description") if name == "data file" else \
                        ("open_items", "read_description")
                    if name == "data file":
                        planted_data_files.append(path)
                else:
                    ManifestTests.write_table(self, columns=[{"name": "price", "type": "Double", "file": "price.mmf"}])
                    table = os.path.join(folder, "ticks")
                    shutil.move(self.path("ticks"), table)
                    planted = os.path.join(table, {"manifest": "table.json", "time column": "time.mmf",
                                                   "value column": "price.mmf"}[name])
                    release = self.plant(planted, kind)
                    results, run = self.read_table(table, 0, unopenable=kind == "a socket")
                    self.run_case(what, run, release)
                    refusing = ("_read_manifest",) if name == "manifest" else ()
                    refusing += ("to_pandas",) if _HAS_PANDAS else ()
                    if name != "manifest":
                        refusing += tuple(key for key in results if key.startswith("_open_column " + os.path.basename(planted)))
                by_backend = results if name in ("data file", "description") else {"": results}
                for got in by_backend.values():
                    for entry in refusing:
                        self.assert_planted_refused(what, entry, got[entry], planted, kind)

        # The command line itself, in its own process, named every planted data file: it neither blocks nor reads.
        result = subprocess.run([sys.executable, os.path.join(_MODULE_DIR, "listmmf.py"), *planted_data_files],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(1, result.returncode, result.stderr)
        self.assertEqual(len(planted_data_files), result.stderr.count("\n"), result.stderr)

    def assert_planted_refused(self, what, entry, got, planted, kind):
        if kind == "a socket" and got[0] == "unopenable":
            return
        self.assertEqual("refused", got[0], f"{what}: {entry} returned")
        self.assertTrue(got[1].startswith(planted + ": "), f"{what}: {entry}: {got[1]}")


_FIXTURES = os.environ.get("LISTMMF_PY_FIXTURES")


@unittest.skipUnless(_FIXTURES, "LISTMMF_PY_FIXTURES is not set (the directory of files written by the C# side)")
class FixtureTests(unittest.TestCase):
    def assertSameItems(self, got, expected):
        """Fails naming the first item that differs: assertEqual's diff of two long lists takes minutes."""
        if got != expected:
            at = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
            self.fail(f"{len(got):,} items against {len(expected):,} expected; item {at:,} differs: "
                      f"{got[at:at + 3]} against {expected[at:at + 3]}")

    def test_fixtures(self):
        with open(os.path.join(_FIXTURES, "expected.json"), encoding="utf-8") as f:
            expected = json.load(f)
        self.assertIsInstance(expected, dict)
        self.assertLessEqual(set(range(2, 14)), {spec["code"] for spec in expected.values()},
                             "expected.json must cover every data-type code 2 to 13")
        for file_name, spec in sorted(expected.items()):
            path = os.path.join(_FIXTURES, file_name)
            code, values = spec["code"], spec["values"]
            if code == 10:
                values = [struct.unpack("<f", struct.pack("<f", v))[0] for v in values]
            header = listmmf.read_header(path)
            self.assertEqual((header.version, header.code, header.count), (spec["version"], code, len(values)), file_name)
            for name in BACKENDS:
                with self.subTest(file=file_name, backend=name), backend(name):
                    self.assertSameItems(plain(listmmf.open_items(path)), values)
                    if code in (12, 13):
                        self.assertEqual(len(spec["iso"]), len(values))
                        times = as_datetimes(listmmf.open_times(path))
                        self.assertEqual([t.isoformat() for t in times], spec["iso"])


if __name__ == "__main__":
    unittest.main()
