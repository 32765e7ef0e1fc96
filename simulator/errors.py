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
        return ": ".join(p.replace("\n", " ") for p in parts)
