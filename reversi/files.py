"""Reading a file the user named: only a regular file, never more than a limit, never blocking.

A path typed by a person (or a fuzzer) can name a FIFO, a device, a socket or a
folder.  Opening a FIFO for reading waits for a writer for ever, and a device
such as ``/dev/zero`` never ends; so the file is opened without blocking, checked
to be a regular file before a byte is read, and read up to ``limit + 1`` bytes
(the caller refuses a file longer than its limit).

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> os.mkfifo(os.path.join(folder, "pipe"))
>>> read_bounded(os.path.join(folder, "pipe"), 100)
Traceback (most recent call last):
...
OSError: [Errno 22] it is not a regular file (a folder, FIFO, device or socket)
"""

from __future__ import annotations

import errno
import os
import stat


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file at ``path``; :class:`OSError` otherwise."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "it is not a regular file (a folder, FIFO, device or socket)")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)
