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

import datetime
import json
import os
import struct
import subprocess
import sys
import tempfile
import threading
import unittest
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
        self.assertEqual(listmmf.read_header(path), listmmf.Header(0, 6, "Int32", 4, 3, 56))

    def test_empty_file(self):
        self.assert_bad(self._truncate(write_file(self.path("empty.bt")), 0), "0 bytes", "shorter than the 16-byte")

    def test_short_file(self):
        self.assert_bad(self._truncate(write_file(self.path("short.bt")), 10), "10 bytes", "shorter than the 16-byte")

    def test_a_file_left_marked_replaced_is_read_whole_as_version_0(self):
        path = write_file(self.path("marked.bt"), struct.pack("<3i", 1, 2, 3), version=-1, code=6, count=3)
        self.assertEqual(listmmf.read_header(path), listmmf.Header(0, 6, "Int32", 4, 3, 28))
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
        self.assertEqual((header.version, header.count), (0, 1))
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

    def write_table(self, rows, price_count=None):
        os.mkdir(self.path("ticks"))
        manifest = {
            "format": "ListMmf.TimeSeriesTable", "version": 1, "order": "AscendingOrEqual",
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

    @unittest.skipUnless(_HAS_PANDAS, "pandas is not importable")
    def test_a_column_file_of_another_type_than_the_manifest_records_is_refused(self):
        folder = self.write_table(columns=[{"name": "price", "type": "Int64", "file": "price.mmf"}])
        with self.assertRaises(listmmf.ListMmfError) as caught:
            listmmf.to_pandas(folder)
        self.assertIn("holds Double items, but the table's table.json records Int64", str(caught.exception))


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
        path = write_sealed(self.path("huge.sealed"), code=11, item_size=8, count=2**62, codec=3, base=0, step=1.0)
        self.assert_bad(listmmf.open_items, path, "is impossible")

    def test_an_empty_version_2_file_of_no_capacity_has_no_items(self):
        path = write_v2(self.path("empty.bt"), code=6, item_size=4, count=0)
        self.assertEqual(4096, os.path.getsize(path))
        for name in BACKENDS:
            with self.subTest(backend=name), backend(name):
                items = listmmf.open_items(path)
                self.assertEqual([], plain(items))
                self.assertTrue(is_read_only(items))

    def test_a_sealed_block_scaled_by_zero_decodes_to_infinities_without_numpy(self):
        # Decimals (codec 5) divide by the block's step; a step of 0 is no writer's, but IEEE 754 still answers.
        path = write_sealed(self.path("zero-step.sealed"), code=11, item_size=8, count=3, codec=5, base=5, step=0.0)
        with backend("stdlib"):
            self.assertEqual([float("inf")] * 3, plain(listmmf.open_items(path)))

    def test_a_sealed_single_beyond_binary32_decodes_to_infinity_without_numpy(self):
        path = write_sealed(self.path("huge-step.sealed"), code=10, item_size=4, count=2, codec=3, base=-7, step=1e300)
        with backend("stdlib"):
            self.assertEqual([float("-inf")] * 2, plain(listmmf.open_items(path)))

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
