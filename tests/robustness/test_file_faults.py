"""The file corpus (``corpus/files.toml``): output the file system refuses, data files
that are not data files, damaged report folders. Each case runs as a real process in
its own working folder, under a memory limit (``MEMORY_LIMIT``), a time limit
(``TIME_LIMIT``) and, when the case says so, a file-size limit (``ulimit -f``), and
must exit 2 with one line on stderr naming the file or option and the key, without a
traceback, leaving the working folder exactly as it was (no new file, no temporary,
no half-written folder, nothing rewritten).
"""

import json
import os
import resource
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli import main

from .test_bad_input import SCENARIO, _apply
from .tomlw import dumps

CORPUS = Path(__file__).parent / "corpus"
CASES = tomllib.loads((CORPUS / "files.toml").read_text())["case"]
REPO = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 3 << 30     # bytes of address space (numba and LLVM reserve much more than they use)
TIME_LIMIT = 120           # seconds per case, import included (a case may give its own "timeout")


@pytest.fixture(scope="session")
def template_report(tmp_path_factory) -> Path:
    """One small report folder (exact odds), copied where a case wants one."""
    out = tmp_path_factory.mktemp("template") / "rep"
    res = CliRunner().invoke(main, ["assault", "odds", "RY", "YG", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def nested(n: int) -> str:
    return "x = " + "[" * n + "]" * n + "\n"


def prepare(work: Path, case: dict, template: Path) -> None:
    for entry in case.get("setup", []):
        kind, _, rest = entry.partition(":")
        rel, _, value = rest.partition("=")
        value = value.replace("{work}", str(work))
        path = work / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() or path.is_symlink():
            path.unlink()
        if kind == "file":
            path.write_text(value)
        elif kind == "dir":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "big":
            path.write_bytes(b"#" * int(value))
        elif kind == "nested":
            path.write_text(nested(int(value)))
        elif kind == "link":
            path.symlink_to(value)
        elif kind == "json":
            path.write_text(("[" * 100_000 + "]" * 100_000) if value == "NESTED" else value)
        elif kind == "report":
            shutil.copytree(template, path)
            summary_file = path / "summary.json"
            summary = _apply(json.loads(summary_file.read_text()),
                             {"set": case.get("report_set", {}), "delete": case.get("report_delete", [])})
            summary_file.write_text(json.dumps(summary))
        elif kind == "scenario":
            data = tomllib.loads(SCENARIO.read_text())
            data.setdefault("data", {})
            data = _apply(data, {"set": json.loads(value)})
            path.write_text(dumps(data))
        else:
            raise AssertionError(f"unknown setup kind {kind!r}")


def snapshot(work: Path) -> dict[str, tuple]:
    """Every path under ``work`` with its kind, size and modification time."""
    out = {}
    for root, dirs, files in os.walk(work):
        for name in dirs + files:
            p = Path(root) / name
            st = p.lstat()
            out[str(p.relative_to(work))] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


def limits(fsize: int | None):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return apply


def run_limited(args: list[str], cwd: Path, fsize: int | None = None,
                timeout: int = TIME_LIMIT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "simulator", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limits(fsize))


def test_the_file_corpus_covers_every_class():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)) and len(CASES) >= 40
    outputs = [c for c in CASES if "--out" in c["expect"]]
    data = [c for c in CASES if c["args"][0] == "assault" and "--out" not in c["expect"]]
    reports = [c for c in CASES if c["args"][0] == "report"]
    assert min(len(outputs), len(data), len(reports)) >= 10
    assert sum("fsize" in c for c in CASES) >= 5


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_file_fault(case, tmp_path, template_report):
    work = tmp_path / "work"
    work.mkdir()
    prepare(work, case, template_report)
    before = snapshot(work)
    args = [a.replace("{work}", str(work)) for a in case["args"]]
    proc = run_limited(args, work, case.get("fsize"), case.get("timeout", TIME_LIMIT))
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("lanchester") and ": error: " in lines[0]
    for needle in case["expect"]:
        assert needle in lines[0], lines[0]
    for needle in case.get("absent", []):
        assert needle not in lines[0], lines[0]
    assert snapshot(work) == before, "the working folder changed"
