"""Opening the replay viewer (reports/replay_viewer.py) in headless Chromium: the page,
optionally with a small driver script that presses keys, loaded from a file with an
address fragment; the shown position read back from ``<pre id="viewer-state">``."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from pathlib import Path

from tests.reports.report_helpers import CHROMIUM, CHROMIUM_FLAGS


def key_driver(keys: list[tuple[str, bool]]) -> str:
    """A script pressing ``keys`` (``(key, shift)``) on the page, in order."""
    presses = "".join(f'document.dispatchEvent(new KeyboardEvent("keydown", {{key: {json.dumps(k)}, '
                      f'shiftKey: {"true" if shift else "false"}, bubbles: true}}));' for k, shift in keys)
    return f"<script>{presses}</script>"


def shown_state(page: Path, profile: Path, fragment: str = "", driver: str = "") -> dict:
    """Open ``page`` (a copy with ``driver`` before ``</body>``) at ``#fragment`` in
    headless Chromium; the viewer's JSON of the position it shows."""
    assert os.path.exists(CHROMIUM), f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    probe = page.with_name(f"_probe_{page.name}")
    probe.write_text(page.read_text().replace("</body>", driver + "</body>"))
    try:
        uri = probe.as_uri() + (f"#{fragment}" if fragment else "")
        proc = subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                               "--virtual-time-budget=5000", "--dump-dom", uri],
                              capture_output=True, text=True, timeout=120)
    finally:
        probe.unlink()
    m = re.search(r'<pre id="viewer-state" hidden="">(.*?)</pre>', proc.stdout, re.S)
    assert m and m.group(1), f"Chromium did not render the viewer (exit {proc.returncode}): {proc.stderr[-800:]}"
    return json.loads(html.unescape(m.group(1)))
