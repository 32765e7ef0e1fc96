"""The one exception type for bad input, and how it is shown to a user.

Every loader, parser and command raises :class:`InputError` for input it cannot
accept. The CLI turns it into one line on stderr and exit status 2.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from a user: a data file, a pool string or a command argument.

    ``where`` names the file or argument, ``key`` the place inside it (may be
    empty), ``problem`` what is wrong. ``str()`` gives the one-line message.
    """

    def __init__(self, where: str, key: str, problem: str):
        self.where = str(where)
        self.key = key
        self.problem = problem
        super().__init__(self.one_line())

    def one_line(self) -> str:
        parts = [self.where]
        if self.key:
            parts.append(self.key)
        parts.append(self.problem)
        return ": ".join(_escaped(p.replace("\n", " ")) for p in parts)


def _escaped(text: str) -> str:
    """``text`` with its control characters shown as escapes (``\\x1b``): a file name or
    value in a message never reaches the terminal as an escape sequence (issue 44.5)."""
    import re
    return re.sub("[\x00-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", text)


# --- the file system says no ---------------------------------------------------------

def _reasons() -> dict[int, str]:
    import errno
    table = {
        "ENOSPC": "no space left on the device",
        "EDQUOT": "disk quota exceeded",
        "EFBIG": "file too large: the file-size limit (ulimit -f) was reached",
        "EACCES": "permission denied",
        "EPERM": "operation not permitted",
        "EROFS": "read-only file system",
        "ENOTDIR": "a part of the path is not a folder",
        "ENOENT": "no such file or folder",
        "EISDIR": "is a folder",
        "EEXIST": "already exists",
        "ENAMETOOLONG": "name too long",
        "ELOOP": "too many symbolic links",
        "EXDEV": "cannot rename across file systems",
        "EBUSY": "device or resource busy",
        "EIO": "input/output error",
    }
    return {getattr(errno, k): v for k, v in table.items() if hasattr(errno, k)}


_REASONS = _reasons()


def os_reason(exc: OSError) -> str:
    """What an OSError means, in a few words (no path, no traceback)."""
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    if exc.strerror:
        return exc.strerror.lower()
    return " ".join(str(exc).split()) or type(exc).__name__


def os_input_error(exc: OSError, where: str | None = None, key: str = "", doing: str = "") -> InputError:
    """The one way an OSError becomes the one-line error: ``where`` (the file, or the
    option), ``key`` (the path when ``where`` is an option), ``doing`` ("cannot write")."""
    where = where or (str(exc.filename) if exc.filename is not None else "lanchester")
    reason = os_reason(exc)
    return InputError(where, key, f"{doing} ({reason})" if doing else reason)
