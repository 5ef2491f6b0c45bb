"""A recording file system: passes every operation through to a backing folder and logs, in order, what a disk
would see of it (writes with offset and data, truncations, creates, renames, unlinks, directory creation, and each
fsync of a file or a directory), plus the look-ups of the workload's marks (".mark-N-WHAT", answered "no such
file"). Mapped pages reach it when the kernel writes them back, by msync or on its own, as they would reach a disk.

Single-threaded (nothreads), so the log's order is the order the kernel asked. Run as root:
    python3 recorder.py BACKING MOUNTPOINT LOG
and unmount MOUNTPOINT to end it. The log is a stream of pickled tuples:
    ("mkdir", path) ("rmdir", path) ("create", inode, path) ("write", inode, offset, bytes) ("truncate", inode, size)
    ("rename", old, new) ("unlink", path) ("fsync", inode) ("fsyncdir", path) ("mark", name)
Inodes are numbered by the recorder as files are created; an open file that is unlinked or renamed over goes on
being written through its handle.
"""

import errno
import os
import pickle
import sys

from fusepy import FUSE, FuseOSError, Operations


class Recorder(Operations):
    def __init__(self, root, log):
        self.root = root
        self.log = log
        self.inodes = {}  # path -> inode number
        self.handles = {}  # fh -> inode number
        self.next_inode = 1

    def _record(self, *entry):
        pickle.dump(entry, self.log, protocol=pickle.HIGHEST_PROTOCOL)

    def _real(self, path):
        return self.root + path

    def _inode(self, path, fh=None):
        if fh is not None and fh in self.handles:
            return self.handles[fh]
        return self.inodes.get(path)

    def getattr(self, path, fh=None):
        name = os.path.basename(path)
        if name.startswith(".mark-"):
            self._record("mark", name)
            raise FuseOSError(errno.ENOENT)
        try:
            st = os.lstat(self._real(path)) if fh is None else os.fstat(fh)
        except OSError as error:
            raise FuseOSError(error.errno)
        keys = ("st_atime", "st_ctime", "st_gid", "st_mode", "st_mtime", "st_nlink", "st_size", "st_uid", "st_ino")
        return {key: getattr(st, key) for key in keys}

    def access(self, path, amode):
        if not os.access(self._real(path), amode):
            raise FuseOSError(errno.EACCES)

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._real(path))

    def readlink(self, path):
        return os.readlink(self._real(path))

    def statfs(self, path):
        st = os.statvfs(self._real(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")
        return {key: getattr(st, key) for key in keys}

    def chmod(self, path, mode):
        os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self._real(path), uid, gid)

    def utimens(self, path, times=None):
        os.utime(self._real(path), times)

    def mkdir(self, path, mode):
        os.mkdir(self._real(path), mode)
        self._record("mkdir", path)

    def rmdir(self, path):
        os.rmdir(self._real(path))
        self._record("rmdir", path)

    def create(self, path, mode, fi=None):
        fh = os.open(self._real(path), os.O_RDWR | os.O_CREAT | os.O_TRUNC, mode)
        inode = self.next_inode
        self.next_inode += 1
        self.inodes[path] = inode
        self.handles[fh] = inode
        self._record("create", inode, path)
        return fh

    def open(self, path, flags):
        fh = os.open(self._real(path), flags & ~(os.O_CREAT | os.O_EXCL))
        inode = self.inodes.get(path)
        if inode is None and flags & (os.O_WRONLY | os.O_RDWR):
            # A file that was there before the mount (the block-level stage's disk, made by mkfs): recorded from here.
            inode = self.inodes[path] = self.next_inode
            self.next_inode += 1
            self._record("open", inode, path)
        if inode is not None:
            self.handles[fh] = inode
        return fh

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        written = os.pwrite(fh, data, offset)
        inode = self._inode(path, fh)
        if inode is not None:
            self._record("write", inode, offset, bytes(data[:written]))
        return written

    def truncate(self, path, length, fh=None):
        if fh is None:
            os.truncate(self._real(path), length)
        else:
            os.ftruncate(fh, length)
        inode = self._inode(path, fh)
        if inode is not None:
            self._record("truncate", inode, length)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        os.fsync(fh)
        inode = self._inode(path, fh)
        if inode is not None:
            self._record("fsync", inode)
        return 0

    def fsyncdir(self, path, datasync, fh):
        self._record("fsyncdir", path)
        return 0

    def release(self, path, fh):
        self.handles.pop(fh, None)
        os.close(fh)
        return 0

    def rename(self, old, new):
        os.rename(self._real(old), self._real(new))
        inode = self.inodes.pop(old, None)
        self._record("rename", old, new)
        if inode is not None:
            self.inodes[new] = inode
        if os.path.isdir(self._real(new)):
            for path in [path for path in self.inodes if path.startswith(old + "/")]:
                self.inodes[new + path[len(old):]] = self.inodes.pop(path)

    def unlink(self, path):
        os.unlink(self._real(path))
        self.inodes.pop(path, None)
        self._record("unlink", path)

    def symlink(self, target, source):
        raise FuseOSError(errno.EPERM)

    def link(self, target, source):
        raise FuseOSError(errno.EPERM)

    def destroy(self, path):
        self.log.flush()


def main():
    backing, mountpoint, log_path = sys.argv[1:4]
    with open(log_path, "wb") as log:
        # hard_remove: an open file unlinked or renamed over is not kept under a hidden name first, which would log
        # an unlink before an atomic rename.
        FUSE(Recorder(os.path.abspath(backing), log), mountpoint, foreground=True, nothreads=True, hard_remove=True)


if __name__ == "__main__":
    main()
