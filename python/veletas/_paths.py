"""What a path names, for the commands that read and write files.

A command that saves (``--save``, ``--out``) replaces or appends to the file
it names. A device (``/dev/null``), a FIFO, a socket, a directory or a
symbolic link is not such a file: renaming a new file onto it would replace
the thing itself (a device node, a link), so it is refused whatever
``--force`` says, with the reason. ``-`` is refused too: it names no file
(standard output is offered where a command says so).

A command that reads a file of games or records reads a regular file (or a
link to one): it may read it twice, which a FIFO does not allow.
"""

from __future__ import annotations

import os
import stat

__all__ = ["why_not_readable", "why_not_writable"]


def why_not_writable(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be written as a file by a command, or None if it
    can (as far as its kind goes: a missing folder or a permission is the
    writer's own error)."""
    name = os.fspath(path)
    if name == "-":
        return "'-' names no file here: give a file's name"
    try:
        found = os.lstat(name)
    except FileNotFoundError:
        return None
    except OSError as error:
        return error.strerror or str(error)
    if stat.S_ISLNK(found.st_mode):
        return "it is a symbolic link: name the file it points to"
    if stat.S_ISDIR(found.st_mode):
        return "it is a directory"
    if not stat.S_ISREG(found.st_mode):
        return f"it is {_kind(found.st_mode)}, not a regular file"
    return None


def why_not_readable(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be read as a file of games or records, or None."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return error.strerror or str(error)
    if stat.S_ISDIR(found.st_mode):
        return "a directory, not a file"
    if not stat.S_ISREG(found.st_mode):
        return f"{_kind(found.st_mode)}, not a file: save what it gives to a file first"
    return None


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
