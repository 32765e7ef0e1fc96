"""Bounded memory: a long Monte Carlo run streams its chunks (peak RSS measured by the OS).

The full figure (100 million dice resolutions through the CLI) is measured by hand
(see docs/cluster.md); here a 24-million-trial run (24 chunks, so well past what the
runner keeps in flight) must peak at almost the same resident size as a tiny run, and
far below 1 GiB.
"""

import subprocess
import sys

GIB_KIB = 1 << 20

# Run the CLI as a child and report its peak RSS (ru_maxrss, KiB on Linux): a fresh
# parent per measurement, so no other child of the test process is counted.
PEAK_RSS = ("import resource, subprocess, sys\n"
            "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def peak_rss_kib(*args: str) -> int:
    out = subprocess.run([sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "simulator", *args],
                         capture_output=True, text=True, timeout=120, check=True).stdout.split()
    assert out[0] == "0", "the run failed"
    return int(out[1])


def test_a_long_run_streams_in_bounded_memory():
    odds = ["assault", "odds", "RY", "YG", "--seed", "1", "--workers", "2", "--format", "json"]
    small = peak_rss_kib(*odds, "--trials", "1000")
    large = peak_rss_kib(*odds, "--trials", "24000000")
    assert large < GIB_KIB
    assert large - small < 64 * 1024, (small, large)  # KiB: not growing with the trials


def test_a_scenario_batch_streams_its_records_in_bounded_memory(tmp_path):
    """Scenario games (issue 7) keep only counts and two bytes per game in memory; the
    records go to games.parquet/games.csv as they come. 8,000 games with the report
    folder must peak within 64 MiB of 500 games (the 1-million-game figure is in
    bench/scenario.py --million and the closing notes)."""
    run = ["assault", "scenario", "infantry-training", "--seed", "1", "--workers", "2", "--format", "json"]
    small = peak_rss_kib(*run, "--games", "500", "--out", str(tmp_path / "small"))
    large = peak_rss_kib(*run, "--games", "8000", "--out", str(tmp_path / "large"))
    assert (tmp_path / "large" / "games.parquet").is_file()
    assert large < GIB_KIB
    assert large - small < 64 * 1024, (small, large)
