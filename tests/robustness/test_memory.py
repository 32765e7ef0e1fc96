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


def test_a_pool_over_the_limit_is_refused_before_anything_is_allocated():
    """A pool of 250 dice (7.8 GB and 161 s before the limit) is refused at once, in a
    process no bigger than a tiny run; a pool at the limit runs by Monte Carlo in bounded
    memory."""
    import time
    pool = "99R+99R+52Y"
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "simulator", "assault", "odds",
                           pool, "YG"], capture_output=True, text=True, timeout=120)
    code, peak = proc.stdout.split()
    assert code == "2" and int(peak) < 400 * 1024
    assert time.monotonic() - start < 60
    at_limit = peak_rss_kib("assault", "odds", "50R+50Y", "50G+50B", "--trials", "3000000", "--seed", "1",
                            "--workers", "2", "--format", "json")
    assert at_limit < 600 * 1024, at_limit


def test_the_largest_number_of_trials_streams_its_chunk_plan():
    """``--trials 2**63-1`` (the most 64-bit counts hold) starts rolling at once and its
    chunk plan takes no memory (a list of chunks grew by 532 MiB per 10**12 trials)."""
    import time
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "assault", "odds", "RY", "YG", "--trials",
                             str(2**63 - 1), "--seed", "1", "--workers", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(12)
        assert proc.poll() is None
        status = open(f"/proc/{proc.pid}/status").read()
        peak = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
    finally:
        proc.kill()
        proc.wait()
    assert peak < 400 * 1024, peak


def test_a_chunk_plan_is_lazy():
    from simulator.run import runner
    plan = runner.plan_chunks(10**18, seed=4)
    assert len(plan) == -(-10**18 // runner.DEFAULT_CHUNK_TRIALS)
    last = plan[-1]
    assert last.index == len(plan) - 1 and last.trials == 10**18 - last.index * runner.DEFAULT_CHUNK_TRIALS
    assert [c.index for c in plan[2:4]] == [2, 3]


def big_map_scenario(cols: int, rows: int, path) -> None:
    """Infantry Training (six units) with its map in the corner of a ``cols`` x ``rows``
    map of random clear, brush and forest hexes (bench/maps.py measures the same maps)."""
    import random
    import re

    from simulator.run.datafile import REPO_ROOT
    src = (REPO_ROOT / "scenarios" / "assault" / "infantry-training.scenario.toml").read_text()
    m = re.search(r"rows = \[\n(.*?)\n\]", src, re.S)
    orig = re.findall(r'"([^"]*)"', m.group(1))
    rng = random.Random(cols * 1000 + rows)
    new = [(orig[i] if i < len(orig) else "")[:cols] for i in range(rows)]
    new = [r + "".join(rng.choice("......bf") for _ in range(cols - len(r))) for r in new]
    path.write_text(src[:m.start()] + "rows = [\n" + "\n".join(f'  "{r}",' for r in new) + "\n]" + src[m.end():])


def test_a_100_by_100_map_compiles_and_plays_in_bounded_memory(tmp_path):
    """Issue 20: the LOS tables used to be all-pairs (a 200 x 200 map died with
    MemoryError, 40 x 30 took 600 MB). A 10,000-hex map now compiles and plays under
    1 GiB, and barely more than the shipped 108-hex map (the figures against map size
    are in bench/maps.py)."""
    import json
    path = tmp_path / "big.scenario.toml"
    big_map_scenario(100, 100, path)
    run = ["assault", "scenario", "--games", "40", "--seed", "3", "--workers", "1", "--format", "json"]
    cmd = [sys.executable, "-c", PEAK_RSS.replace("stdout=subprocess.DEVNULL", "stdout=subprocess.PIPE")
           + "import sys; sys.stderr.write(r.stdout.decode())\n", sys.executable, "-m", "simulator"]
    res = subprocess.run(cmd + [run[0], run[1], str(path), *run[2:]], capture_output=True, text=True,
                         timeout=1500, check=True)
    code, kib = res.stdout.split()
    assert code == "0", res.stderr
    report = json.loads(res.stderr)
    sides = report["sides"]
    assert 0.0 <= report["win_rate"][sides[0]]["p"] + report["win_rate"][sides[1]]["p"] <= 1.0
    small = subprocess.run(cmd + [run[0], run[1], "infantry-training", *run[2:]], capture_output=True,
                           text=True, timeout=1500, check=True).stdout.split()
    assert int(kib) < GIB_KIB
    assert int(kib) - int(small[1]) < 300 * 1024, (small, kib)   # KiB: the tables of 10,000 hexes


def test_over_the_memory_limit_is_one_line(tmp_path, monkeypatch):
    """Beyond what the tables may take (here a limit lowered to 1 MiB), the one-line
    error names the map's size and the limit, before the tables are allocated."""
    from click.testing import CliRunner

    from simulator.cli import main
    from simulator.games.assault.game import layout
    path = tmp_path / "big.scenario.toml"
    big_map_scenario(60, 40, path)
    monkeypatch.setattr(layout, "NEAR_TABLES_BYTES", 1 << 20)
    monkeypatch.setattr(layout, "near_tables", lambda *a: (_ for _ in ()).throw(AssertionError("allocated")))
    res = CliRunner().invoke(main, ["assault", "scenario", str(path), "--games", "10"])
    assert res.exit_code == 2 and "Traceback" not in res.stderr, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert str(path) in lines[0] and "map.rows: the 60 x 40 map has 2,400 hexes: at most" in lines[0]
    assert "limit 1 MiB" in lines[0]
