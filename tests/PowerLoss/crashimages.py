"""Crash images from a recording (recorder.py), checked by the library (the TestHost's power-check).

The model of what a power loss keeps is a journaling file system's, ext4 with data=ordered:
- Metadata (mkdir, create, rename, unlink, truncate, rmdir) is journaled in order: what survives is a prefix of the
  metadata operations. The prefix holds at least every operation before the last fsync of a directory (its
  entries), and every truncation of a file before that file's last fsync (its size).
- A file's data writes before its last fsync survive. Any subset of the later ones may survive, and each may be
  torn: any subset of its 512-byte sectors.
- A write past a file's end extends it only if that write survives.
The state at a crash point is the recording's operations up to that point, filtered so; the crash point's mark is
the last mark the workload had passed, i.e. what the library had promised by then.

    python3 crashimages.py LOG WORKLOAD IMAGES SEED CHECKER...
builds IMAGES images (every crash point first, then random ones), each in a scratch folder, runs CHECKER (a command
line taking "IMAGE_DIR TAB MARK" lines) over them, and prints one summary line, plus every finding.
"""

import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile

SECTOR = 512
METADATA = {"mkdir", "rmdir", "create", "rename", "unlink", "truncate"}


def read_log(path):
    entries = []
    with open(path, "rb") as log:
        while True:
            try:
                entries.append(pickle.load(log))
            except EOFError:
                return entries


class Recording:
    def __init__(self, entries):
        self.entries = entries
        # For each position: how many metadata operations precede it, and the lowest durable prefix there.
        self.metadata_before = []
        self.durable_metadata = []
        self.durable_write = {}  # index of a write -> whether a later fsync of its file (before the crash) covers it
        self.last_mark = []
        count = 0
        floor = 0
        last_truncate = {}
        mark = "-"
        for entry in entries:
            self.metadata_before.append(count)
            self.durable_metadata.append(floor)
            self.last_mark.append(mark)
            kind = entry[0]
            if kind in METADATA:
                count += 1
                if kind == "truncate":
                    last_truncate[entry[1]] = count
            elif kind == "fsyncdir":
                floor = count
            elif kind == "fsync":
                floor = max(floor, last_truncate.get(entry[1], 0))
            elif kind == "mark":
                mark = entry[1].split("-", 2)[2]
        self.metadata_before.append(count)
        self.durable_metadata.append(floor)
        self.last_mark.append(mark)

    def image(self, crash, rng, folder):
        """Writes into folder the state a power loss at position crash may leave; returns its mark."""
        entries = self.entries[:crash]
        synced_until = {}
        for index, entry in enumerate(entries):
            if entry[0] == "fsync":
                synced_until[entry[1]] = index
        floor = self.durable_metadata[crash]
        prefix = rng.randint(floor, self.metadata_before[crash])
        keep_all = rng.random() < 0.2
        names = {}
        data = {}
        directories = set()
        metadata = 0
        for index, entry in enumerate(entries):
            kind = entry[0]
            if kind in METADATA:
                metadata += 1
                if metadata > prefix:
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
                torn = not durable and not keep_all and rng.random() < 0.2
                for start in range(0, len(payload), SECTOR):
                    if torn and rng.random() < 0.5:
                        continue
                    end = min(start + SECTOR, len(payload))
                    at = offset + start
                    if len(content) < at:
                        content.extend(bytes(at - len(content)))
                    content[at:at + end - start] = payload[start:end]
        for directory in sorted(directories):
            os.makedirs(folder + directory, exist_ok=True)
        for name, inode in names.items():
            parent = os.path.dirname(folder + name)
            if not os.path.isdir(parent):
                continue
            with open(folder + name, "wb") as file:
                file.write(data.get(inode, b""))
        return self.last_mark[crash]


def crash_points(recording, images, rng):
    """Every crash point once (up to the number of images), then random ones."""
    positions = list(range(len(recording.entries) + 1))
    points = positions[:images] if len(positions) <= images else sorted(rng.sample(positions, images))
    while len(points) < images:
        points.append(rng.choice(positions))
    return points


def main():
    log, workload, images, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    checker = sys.argv[5:]
    recording = Recording(read_log(log))
    rng = random.Random(seed)
    scratch = tempfile.mkdtemp(prefix="listmmf-crash-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    counts = {"ok": 0, "lost": 0, "undetected": 0, "crashes": 0}
    findings = []
    pending = crash_points(recording, images, rng)
    try:
        while pending:
            process = subprocess.Popen(checker + ["power-check", workload], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
            crashed_at = None
            for crash in list(pending):
                folder = os.path.join(scratch, f"image-{crash}-{len(pending)}")
                os.makedirs(folder)
                mark = recording.image(crash, rng, folder)
                process.stdin.write(f"{folder}\t{mark}\n")
                process.stdin.flush()
                line = process.stdout.readline()
                pending.pop(0)
                if not line:
                    crashed_at = (crash, mark, folder)
                    break
                verdict = line.rstrip("\n").split("\t", 1)[1]
                kind = verdict.split(":", 1)[0]
                counts[kind if kind in counts else "lost"] += 1
                if kind != "ok":
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
    print(f"{workload}: {images} images from {len(recording.entries)} recorded operations (last mark "
          f"{recording.last_mark[-1]}), {counts['lost']} lost, "
          f"{counts['undetected']} undetected damage, {counts['crashes']} crashes")


if __name__ == "__main__":
    main()
