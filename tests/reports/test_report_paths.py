"""``lanchester report DIR`` reads and writes only inside DIR (issue 23 item 4): a
summary.json naming ``../x``, an absolute path or a link leading out is the one-line
error, and nothing outside (nor the report's own page) is read or rewritten; a damaged
summary.json names the file and the key (issue 20 class 4)."""

import json
import shutil

import pytest
from click.testing import CliRunner

from reports.bundle import rebuild
from simulator.cli import main
from simulator.run.errors import InputError


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    out = tmp_path_factory.mktemp("t") / "rep"
    res = CliRunner().invoke(main, ["assault", "odds", "RY", "YG", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def edited(tmp_path, template, name, change):
    folder = tmp_path / name
    shutil.copytree(template, folder)
    summary = json.loads((folder / "summary.json").read_text())
    change(summary)
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


def test_a_table_outside_the_folder_is_not_read(tmp_path, template):
    secret = tmp_path / "secret.csv"
    secret.write_text("password\nhunter2\n")
    for i, bad in enumerate(["../secret.csv", str(secret), "sub/../../secret.csv", ".."]):
        folder = edited(tmp_path, template, f"r{i}", lambda s, bad=bad: s["tables"][0].update(file=bad))
        page = (folder / "index.html").read_bytes()
        with pytest.raises(InputError) as err:
            rebuild(folder)
        assert (err.value.where, err.value.key) == (str(folder / "summary.json"), "tables[0].file")
        assert "inside the report's folder" in err.value.problem
        assert (folder / "index.html").read_bytes() == page and "hunter2" not in err.value.one_line()


def test_a_link_leading_out_is_refused(tmp_path, template):
    secret = tmp_path / "secret.csv"
    secret.write_text("a\n1\n")
    folder = edited(tmp_path, template, "r", lambda s: None)
    table = json.loads((folder / "summary.json").read_text())["tables"][0]["file"]
    (folder / table).unlink()
    (folder / table).symlink_to(secret)
    with pytest.raises(InputError, match=r"tables\[0\]\.file: leads outside the report's folder"):
        rebuild(folder)


def test_a_collection_does_not_rewrite_another_folder(tmp_path, template):
    other = tmp_path / "other"
    shutil.copytree(template, other)
    before = (other / "index.html").read_bytes()
    (other / "index.html").write_text("untouched")
    col = tmp_path / "col"
    col.mkdir()
    entry = {"dir": "../other", "kind": "odds", "question": "q", "highlights": [], "charts": [],
             "method": "exact"}
    (col / "summary.json").write_text(json.dumps({"lanchester_report": 1, "kind": "collection", "title": "t",
                                                  "intro": "i", "provenance": {}, "reports": [entry]}))
    with pytest.raises(InputError, match=r"reports\[0\]\.dir: must be a file name inside the report's folder"):
        rebuild(col)
    assert (other / "index.html").read_text() == "untouched" and before
    assert not (col / "index.html").exists()


def test_a_good_collection_still_rebuilds(tmp_path, template):
    col = tmp_path / "col"
    col.mkdir()
    shutil.copytree(template, col / "a")
    (col / "a" / "index.html").unlink()
    entry = {"dir": "a", "kind": "odds", "question": "q", "highlights": [["k", "v"]], "charts": [],
             "method": "exact"}
    (col / "summary.json").write_text(json.dumps({"lanchester_report": 1, "kind": "collection", "title": "t",
                                                  "intro": "i", "provenance": {}, "reports": [entry]}))
    assert rebuild(col) == col
    assert (col / "index.html").is_file() and (col / "a" / "index.html").is_file()


@pytest.mark.parametrize("change, key", [
    (lambda s: s.pop("tables"), "tables: required key is missing"),
    (lambda s: s.update(tables={"a": 1}), "tables: Input should be a valid list"),
    (lambda s: s["tables"][0].update(rows="9"), "tables[0].rows: Input should be a valid integer"),
    (lambda s: s["tables"][0].pop("name"), "tables[0].name: required key is missing"),
    (lambda s: s.update(charts=None), "charts: Input should be a valid list"),
    (lambda s: s["provenance"].update(sources=[{"kind": 1}]), "provenance.sources[0].kind"),
])
def test_a_damaged_summary_names_the_file_and_the_key(tmp_path, template, change, key):
    folder = edited(tmp_path, template, "r", change)
    res = CliRunner().invoke(main, ["report", str(folder)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{folder / 'summary.json'}: {key}" in lines[0], lines
