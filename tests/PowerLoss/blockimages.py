"""Crash images below the file system: a disk's recording (recorder.py serving the file a loop device is set up on),
recovered by the real ext4 or XFS of this kernel, and checked by the library as crashimages.py checks its own.

The model is a disk's with a volatile write cache, as dm-log-writes replays it: every block written before the
disk's last flush (the loop device's fsync of its file) survives; of the blocks written since, any subset does, each
whole (4 KiB: what the loop device writes, and a sector of 4Kn disks and of flash) or, when written again, as any of
its versions since the flush (the later writes applied in order, each kept or not). The file system is then mounted
as the next boot mounts it (its journal or log replayed by the kernel), and the files it holds are the image.

    python3 blockimages.py LOG BASE FSTYPE WORKLOAD FORMAT IMAGES SEED CHECKER...
LOG is the recording, BASE the disk as mkfs left it before the recording began, FSTYPE ext4 or xfs. The summary line
is crashimages.py's, labelled with the file system. An image the file system cannot mount stops the stage: no power
loss may leave a journaling file system unmountable, so the model or the disk's recording is wrong.
"""

import hashlib
import os
import shutil
import subprocess
import sys

import crashimages


class BlockRecording:
    def __init__(self, entries, base, fstype):
        # A quiet run's crash points end where its workload did (.ci/power-loss looks up ".mark-quiet-end" then): the
        # unmount after it writes back what the workload left dirty, which is the kernel's writeback, not the library's.
        end = next((index for index, entry in enumerate(entries) if entry == ("mark", ".mark-quiet-end")), len(entries))
        entries = entries[:end]
        self.entries, self.base, self.fstype = entries, base, fstype
        self.marks = sum(1 for entry in entries if entry[0] == "mark")
        self.last_mark = []
        mark = "-"
        for entry in entries:
            self.last_mark.append(mark)
            if entry[0] == "mark":
                mark = entry[1].split("-", 2)[2]
        self.last_mark.append(mark)

    def image(self, crash, rng, folder):
        """Writes into folder the files the file system holds after a power loss at position crash and its recovery;
        returns (mark, digest of those files)."""
        entries = self.entries[:crash]
        flushed = max((index for index, entry in enumerate(entries) if entry[0] == "fsync"), default=-1)
        keep_all = rng.random() < 0.2
        disk = folder + ".img"
        subprocess.run(["cp", "--sparse=always", self.base, disk], check=True)
        with open(disk, "r+b") as device:
            for index, entry in enumerate(entries):
                if entry[0] != "write":
                    continue
                if index > flushed and not keep_all and rng.random() < 0.5:
                    continue
                device.seek(entry[2])
                device.write(entry[3])
        mount = folder + ".mnt"
        os.makedirs(mount)
        loop = subprocess.run(["losetup", "--find", "--show", disk], check=True, capture_output=True, text=True).stdout.strip()
        try:
            mounted = subprocess.run(["mount", "-t", self.fstype, loop, mount], capture_output=True, text=True)
            if mounted.returncode != 0:
                kept = folder + "-unmountable.img"
                shutil.copyfile(disk, kept)
                raise RuntimeError(f"{self.fstype} did not mount the image of crash point {crash}: "
                                   f"{mounted.stderr.strip()} [{kept}]")
            try:
                subprocess.run(["cp", "-a", "--sparse=always", mount + "/.", folder], check=True)
            finally:
                subprocess.run(["umount", mount], check=True)
        finally:
            subprocess.run(["losetup", "--detach", loop], check=True)
            os.rmdir(mount)
            os.remove(disk)
        shutil.rmtree(os.path.join(folder, "lost+found"), ignore_errors=True)
        return self.last_mark[crash], digest(folder)


def digest(folder):
    """The files' names and contents: images that recover to the same files are one distinct image."""
    result = hashlib.sha256()
    for root, directories, files in sorted(os.walk(folder)):
        directories.sort()
        result.update(b"D" + os.path.relpath(root, folder).encode())
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as file:
                content = file.read()
            result.update(b"F" + name.encode() + len(content).to_bytes(8, "little") + hashlib.sha256(content).digest())
    return result.hexdigest()


def main():
    log, base, fstype, workload, version = sys.argv[1:6]
    images, seed = int(sys.argv[6]), int(sys.argv[7])
    recording = BlockRecording(crashimages.read_log(log), base, fstype)
    quiet = " (quiet: no writeback but the library's)" if os.environ.get("LISTMMF_POWER_QUIET") else ""
    crashimages.check_images(recording, workload, version, images, seed, sys.argv[8:], label=f" on {fstype}{quiet}")


if __name__ == "__main__":
    main()
