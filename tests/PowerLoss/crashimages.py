"""Crash images from a recording (recorder.py), checked by the library (the TestHost's power-check).

The model of what a power loss keeps is a journaling file system's, ext4 with data=ordered, made stricter where
POSIX allows: metadata is ordered per directory, not across the whole file system.
- Each directory's entries (mkdir, rmdir, create, rename into it, unlink) survive as a prefix of that directory's
  operations, which holds at least every operation before the directory's last fsync; each file's truncations
  survive as a prefix of that file's, holding every one before the file's last fsync. A new directory's entry is
  one of its parent's: it survives only as its parent's prefix allows, and with it everything inside.
- A file's data writes before its last fsync survive. Any subset of the later ones may survive, and each may be
  torn: any subset of its 512-byte sectors.
- A write past a file's end extends it only if that write survives. A write into a length that a change of length
  gave (growth by ftruncate or fallocate, then pages written back from a mapping) never extends the file by itself:
  where the growth did not survive, what was written past the surviving end is gone with it.
- Growth is metadata, as a journaling file system makes it: glibc's emulation of fallocate on FUSE (a zero byte
  written per block, the last one at the new end) is read back as the one change of length it stands for, ordered
  with the file's truncations (as_growth).
The state at a crash point is the recording's operations up to that point, filtered so; the crash point's mark is
the last mark the workload had passed, i.e. what the library had promised by then.

    python3 crashimages.py LOG WORKLOAD FORMAT IMAGES SEED CHECKER...
builds IMAGES images (every crash point first, then random ones), each in a scratch folder, runs CHECKER (a command line taking "IMAGE_DIR TAB
MARK" lines after "power-check WORKLOAD FORMAT") over them, and prints one summary line, with the number of distinct
images, plus every finding. A recording without marks fails: the workload promised nothing the images could check.
"""

import hashlib

import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile

SECTOR = 512
METADATA = {"mkdir", "rmdir", "create", "rename", "unlink", "truncate"}

# The Python reader, from this checkout, reads every image too, as a process of the boot after the power loss.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "python"))
import listmmf  # noqa: E402

listmmf._BOOT_SESSION ^= 0x9E3779B97F4A7C15

# The files of each workload whose counts every reader must agree on (the checker's ReadersDisagree).
AGREED_FILES = {
    "append": ["list.bin"], "window": ["list.bin"], "empty": ["list.bin"], "lifecycle": ["list.bin"], "series": ["list.bin"],
    "series-writeback": ["list.bin"], "table": ["ticks/time.mmf", "ticks/sequence.mmf"], "seal": ["list.bin"],
    "seal-table": ["ticks/time.mmf", "ticks/sequence.mmf"], "text-table": ["ticks/time.mmf", "ticks/venue.text.mmf"],
}


def python_counts(workload, folder):
    """What the Python reader counts in each of the workload's files in the image: a number, or "refused"."""
    counts = []
    for name in AGREED_FILES.get(workload, []):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        try:
            counts.append(f"{name}={len(listmmf.open_items(path))}")
        except listmmf.ListMmfError:
            counts.append(f"{name}=refused")
    return ";".join(counts)


def read_log(path):
    entries = []
    with open(path, "rb") as log:
        while True:
            try:
                entries.append(pickle.load(log))
            except EOFError:
                return entries


def owner(entry):
    """Whose ordered metadata an operation is: its directory's (the new name's, for a rename), or a file's truncations."""
    kind = entry[0]
    if kind == "truncate":
        return ("file", entry[1])
    path = entry[2] if kind in ("create", "rename") else entry[1]
    return ("dir", os.path.dirname(path))


def is_growth_byte(entry):
    return entry[0] == "write" and entry[3] == b"\0"


def as_growth(entries):
    """The recording with each run of one-byte zero writes to one file (glibc's fallocate on FUSE, which has none)
    replaced by what fallocate is on ext4 or XFS: one change of the file's length, if it grew, and nothing else (the
    bytes glibc writes are zeros where the file held zeros). Returns the entries and, for each write, whether it
    extended the file as recorded."""
    result, extends, length = [], {}, {}
    index = 0
    while index < len(entries):
        entry = entries[index]
        if is_growth_byte(entry):
            inode, end = entry[1], length.get(entry[1], 0)
            while index < len(entries) and is_growth_byte(entries[index]) and entries[index][1] == inode:
                end = max(end, entries[index][2] + 1)
                index += 1
            if end > length.get(inode, 0):
                length[inode] = end
                result.append(("truncate", inode, end))
            continue
        kind = entry[0]
        if kind == "create":
            length[entry[1]] = 0
        elif kind == "truncate":
            length[entry[1]] = entry[2]
        elif kind == "write":
            end = entry[2] + len(entry[3])
            extends[len(result)] = end > length.get(entry[1], 0)
            length[entry[1]] = max(length.get(entry[1], 0), end)
        result.append(entry)
        index += 1
    return result, extends


class Recording:
    def __init__(self, entries):
        self.entries, self.extends = as_growth(entries)
        entries = self.entries
        self.marks = sum(1 for entry in entries if entry[0] == "mark")
        # For each metadata operation: its owner and its rank among the owner's operations.
        self.rank = {}
        # For each position: the last mark passed.
        self.last_mark = []
        counts = {}
        mark = "-"
        for index, entry in enumerate(entries):
            self.last_mark.append(mark)
            kind = entry[0]
            if kind in METADATA:
                key = owner(entry)
                self.rank[index] = (key, counts.get(key, 0))
                counts[key] = counts.get(key, 0) + 1
            elif kind == "mark":
                mark = entry[1].split("-", 2)[2]
        self.last_mark.append(mark)

    def image(self, crash, rng, folder):
        """Writes into folder the state a power loss at position crash may leave; returns (mark, digest of the state)."""
        entries = self.entries[:crash]
        synced_until = {}
        total = {}
        floor = {}
        for index, entry in enumerate(entries):
            kind = entry[0]
            if kind == "fsync":
                synced_until[entry[1]] = index
                floor[("file", entry[1])] = total.get(("file", entry[1]), 0)
            elif kind == "fsyncdir":
                floor[("dir", entry[1])] = total.get(("dir", entry[1]), 0)
            elif kind in METADATA:
                key = self.rank[index][0]
                total[key] = total.get(key, 0) + 1
        prefix = {key: rng.randint(floor.get(key, 0), count) for key, count in total.items()}
        keep_all = rng.random() < 0.2
        names = {}
        data = {}
        directories = set()
        for index, entry in enumerate(entries):
            kind = entry[0]
            if kind in METADATA:
                key, rank = self.rank[index]
                if rank >= prefix[key]:
                    continue
                if kind == "mkdir":
                    directories.add(entry[1])
                elif kind == "rmdir":
                    directories.discard(entry[1])
                elif kind == "create":
                    names[entry[2]] = entry[1]
                    data[entry[1]] = bytearray()
                elif kind == "rename":
                    old, new = entry[1], entry[2]
                    if old in names:
                        names[new] = names.pop(old)
                    elif old in directories:
                        for path in [path for path in directories if path == old or path.startswith(old + "/")]:
                            directories.discard(path)
                            directories.add(new + path[len(old):])
                        for path in [path for path in names if path.startswith(old + "/")]:
                            names[new + path[len(old):]] = names.pop(path)
                elif kind == "unlink":
                    names.pop(entry[1], None)
                elif kind == "truncate":
                    content = data.setdefault(entry[1], bytearray())
                    if entry[2] < len(content):
                        del content[entry[2]:]
                    else:
                        content.extend(bytes(entry[2] - len(content)))
            elif kind == "write":
                inode, offset, payload = entry[1], entry[2], entry[3]
                durable = synced_until.get(inode, -1) > index
                if not durable and not keep_all and rng.random() < 0.5:
                    continue
                content = data.setdefault(inode, bytearray())
                if not self.extends[index]:
                    payload = payload[:max(0, len(content) - offset)]
                torn = not durable and not keep_all and rng.random() < 0.2
                for start in range(0, len(payload), SECTOR):
                    if torn and rng.random() < 0.5:
                        continue
                    end = min(start + SECTOR, len(payload))
                    at = offset + start
                    if len(content) < at:
                        content.extend(bytes(at - len(content)))
                    content[at:at + end - start] = payload[start:end]
        # A directory whose own entry did not survive takes everything inside with it.
        def survives(directory):
            parent = os.path.dirname(directory)
            return directory in directories and (parent == "/" or survives(parent))

        kept = {directory for directory in directories if survives(directory)}
        digest = hashlib.sha256()
        for directory in sorted(kept):
            os.makedirs(folder + directory, exist_ok=True)
            digest.update(b"D" + directory.encode())
        for name, inode in sorted(names.items()):
            parent = os.path.dirname(name)
            if parent != "/" and parent not in kept:
                continue
            content = bytes(data.get(inode, b""))
            with open(folder + name, "wb") as file:
                file.write(content)
            digest.update(b"F" + name.encode() + len(content).to_bytes(8, "little") + hashlib.sha256(content).digest())
        return self.last_mark[crash], digest.hexdigest()


def crash_points(recording, images, rng):
    """Every crash point once (up to the number of images), then random ones."""
    positions = list(range(len(recording.entries) + 1))
    points = positions[:images] if len(positions) <= images else sorted(rng.sample(positions, images))
    while len(points) < images:
        points.append(rng.choice(positions))
    return points


def main():
    log, workload, version, images, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    check_images(Recording(read_log(log)), workload, version, images, seed, sys.argv[6:])


def check_images(recording, workload, version, images, seed, checker, label=""):
    """Builds the images of a recording (anything with entries, marks, last_mark and image(crash, rng, folder)), has
    the checker check each, and prints the findings and the summary line; label names the file system, if any."""
    if recording.marks == 0:
        print(f"{workload} {version}: the recording holds no marks: the workload promised nothing to check")
        sys.exit(1)
    rng = random.Random(seed)
    # Images are made in memory (/dev/shm) unless LISTMMF_POWER_SCRATCH names a folder. A run with findings keeps the
    # images of its findings for whoever reads them, so a caller that expects findings (.ci/power-loss-plants) names
    # its own folder and removes it: a plant's kept images are hundreds of MB of the machine's memory.
    root = os.environ.get("LISTMMF_POWER_SCRATCH") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    scratch = tempfile.mkdtemp(prefix="listmmf-crash-", dir=root)
    counts = {"ok": 0, "lost": 0, "undetected": 0, "crashes": 0, "exposure": 0}
    findings = []
    exposures = []
    digests = set()
    pending = crash_points(recording, images, rng)
    try:
        while pending:
            process = subprocess.Popen(checker + ["power-check", workload, version], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
            crashed_at = None
            for crash in list(pending):
                folder = os.path.join(scratch, f"image-{crash}-{len(pending)}")
                os.makedirs(folder)
                mark, digest = recording.image(crash, rng, folder)
                digests.add(digest)
                process.stdin.write(f"{folder}\t{mark}\t{python_counts(workload, folder)}\n")
                process.stdin.flush()
                line = process.stdout.readline()
                pending.pop(0)
                if not line:
                    crashed_at = (crash, mark, folder)
                    break
                verdict = line.rstrip("\n").split("\t", 1)[1]
                kind = verdict.split(":", 1)[0]
                counts[kind if kind in counts else "lost"] += 1
                if kind == "exposure":
                    exposures.append(f"{workload} {version} crash point {crash} (mark {mark}): {verdict}")
                    shutil.rmtree(folder)
                elif kind != "ok":
                    kept = folder + "-kept"
                    os.rename(folder, kept)
                    findings.append(f"{workload} crash point {crash} (mark {mark}): {verdict} [{kept}]")
                else:
                    shutil.rmtree(folder)
            if crashed_at is not None:
                process.wait()
                counts["crashes"] += 1
                findings.append(f"{workload} crash point {crashed_at[0]} (mark {crashed_at[1]}): the checker died "
                                f"(exit {process.returncode}): {process.stderr.read()[-500:]} [{crashed_at[2]}]")
            else:
                process.stdin.close()
                process.wait()
    finally:
        if not findings:
            shutil.rmtree(scratch, ignore_errors=True)
    for finding in findings[:20]:
        print(finding)
    for exposure in exposures[:3]:
        print(exposure)
    print(f"{workload} {version}{label}: {images} images ({len(digests)} distinct) from {len(recording.entries)} recorded "
          f"operations (last mark {recording.last_mark[-1]}), {counts['lost']} lost, "
          f"{counts['undetected']} undetected damage, {counts['crashes']} crashes, "
          f"{counts['exposure']} version 1 exposures")


if __name__ == "__main__":
    main()
