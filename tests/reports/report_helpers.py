"""Shared checks for the report tests: PNG pixels, bundle files, headless Chromium."""

from __future__ import annotations

import html
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
from matplotlib import image as mpimg

from reports.provenance import Provenance, Source

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def sample_provenance(**kw) -> Provenance:
    base = dict(sources=(Source("dice", "assault-default", "reconstructed"),), data_digest="abc123def456",
                data_files=("scenarios/assault/dice.toml",), method="monte-carlo", seed=7, trials=5000,
                version="9.9.9", command="lanchester test --out x")
    return Provenance(**{**base, **kw})


def pixels(png: bytes) -> np.ndarray:
    """RGB floats 0..1, shape (height, width, 3)."""
    assert png[:8] == PNG_MAGIC, "not a PNG file"
    return mpimg.imread(io.BytesIO(png), format="png")[..., :3]


def ink(img: np.ndarray) -> float:
    """Share of pixels that are not (near) white."""
    return float((img.min(axis=2) < 0.92).mean())


def colour_share(img: np.ndarray, hex_colour: str, tol: float = 0.06) -> float:
    """Share of pixels within ``tol`` of a colour (each channel)."""
    rgb = np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return float((np.abs(img - rgb).max(axis=2) < tol).mean())


def check_chart_png(png: bytes, width: int, height: int, min_ink: float = 0.04) -> np.ndarray:
    """The PNG has the stated size, enough drawn pixels, a title band and a footer band."""
    img = pixels(png)
    assert img.shape[:2] == (height, width)
    assert ink(img) > min_ink, f"only {ink(img):.1%} of the pixels are drawn"
    top, bottom = img[: max(8, height // 25)], img[-max(8, height // 25):]
    assert ink(top) > 0.005, "no title drawn at the top"
    assert ink(bottom) > 0.005, "no provenance footer drawn at the bottom"
    return img


def check_bundle(folder: Path) -> dict:
    """Every file summary.json lists exists; PNGs pass the pixel check; CSV headers match."""
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["lanchester_report"] == 1
    assert (folder / "index.html").read_text().startswith("<!DOCTYPE html>")
    for c in summary["charts"]:
        check_chart_png((folder / c["file"]).read_bytes(), c["width"], c["height"])
    for t in summary["tables"]:
        header = (folder / t["file"]).read_text().splitlines()[0]
        assert header.split(",") == t["columns"]
        if t["parquet"]:
            assert (folder / t["parquet"]).read_bytes()[:4] == b"PAR1"
    leftovers = [p.name for p in folder.parent.iterdir() if ".tmp-" in p.name or ".old-" in p.name]
    assert not leftovers, leftovers
    return summary


IMG_CHECK = """<script>
window.addEventListener('load', function () {
  var out = Array.from(document.images).map(function (i) {
    return {src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0,
            w: i.naturalWidth, h: i.naturalHeight};
  });
  var pre = document.createElement('pre');
  pre.id = 'img-report';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def images_in_chromium(page: Path, profile: Path) -> list[dict]:
    """Open ``page`` in headless Chromium; return, for every <img>, whether it loaded.

    A copy of the page with a small script that records ``img.complete &&
    img.naturalWidth > 0`` is written beside it (so relative links resolve the same),
    and Chromium dumps the DOM after the load event.
    """
    assert os.path.exists(CHROMIUM), (
        f"Chromium not found at {CHROMIUM}: `make test` installs the Debian packages chromium and "
        "chromium-driver (apt-get install chromium chromium-driver)")
    probe = page.with_name(f"_imgcheck_{page.name}")
    probe.write_text(page.read_text().replace("</body>", IMG_CHECK + "</body>"))
    try:
        proc = subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                               "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                              capture_output=True, text=True, timeout=120)
    finally:
        probe.unlink()
    m = re.search(r'<pre id="img-report">(.*?)</pre>', proc.stdout, re.S)
    assert m, f"Chromium did not render the page (exit {proc.returncode}): {proc.stderr[-800:]}"
    return json.loads(html.unescape(m.group(1)))
