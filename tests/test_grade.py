"""The grader: full marks for solutions/, zero for exercises/, nothing modified.

Kept fast: one grade call for solutions/, one for exercises/. The awkward and hostile submissions
(raises, loops, os._exit, os.kill, not JSON, missing problems, memory hog, the cheats of issue 9) are
ONE batch in test_grade_batch.py.
"""
import csv
import importlib
import sys
from pathlib import Path

import nbformat
import pytest

from lecture_lib.__main__ import main as cli
from lecture_lib.practice import load_banks
from practice_helpers import ROOT, digests

grade = importlib.import_module("lecture_lib.practice.grade")
NAME = "01_roofline_and_batching.ipynb"
IDS = grade.assignment_problems(ROOT / "solutions")[NAME]
MAX = sum(load_banks()[i].points for i in IDS)
TIMEOUT_S = 10     # per notebook; the looping one uses all of it


def read_csv(path):
    with open(path, newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


@pytest.fixture(scope="module")
def official(tmp_path_factory):
    """Grade solutions/ and exercises/ once, through the command line."""
    out = tmp_path_factory.mktemp("official")
    before = digests(ROOT / "solutions") | digests(ROOT / "exercises")
    assert cli(["grade", str(ROOT / "solutions"), "--csv", str(out / "sol.csv"),
                "--feedback", str(out / "fb_sol"), "--timeout", "60"]) == 0
    assert cli(["grade", str(ROOT / "exercises"), "--csv", str(out / "ex.csv"),
                "--feedback", str(out / "fb_ex"), "--timeout", "60"]) == 0
    after = digests(ROOT / "solutions") | digests(ROOT / "exercises")
    return out, before, after


def test_solutions_get_full_marks(official):
    out, _, _ = official
    rows = read_csv(out / "sol.csv")
    assert set(rows) == {p.stem for p in (ROOT / "solutions").glob("*.ipynb")}
    for student, row in rows.items():          # every solutions notebook, full marks
        assert float(row["total"]) == float(row["max"]) > 0, (student, row)
    row = rows[Path(NAME).stem]
    assert float(row["max"]) == MAX
    for pid in IDS:
        assert float(row[pid]) == load_banks()[pid].points


def test_exercises_get_zero_not_answered(official):
    out, _, _ = official
    rows = read_csv(out / "ex.csv")
    assert set(rows) == {p.stem for p in (ROOT / "exercises").glob("*.ipynb")}
    for student, row in rows.items():          # every exercise notebook, every problem 0
        assert float(row["total"]) == 0 and float(row["max"]) > 0, (student, row)
        text = (out / "fb_ex" / f"{student}.md").read_text()
        n = len(grade.assignment_problems(ROOT / "solutions")[f"{student}.ipynb"])
        assert text.count("| unanswered |") == n and "not answered yet" in text
    assert float(rows[Path(NAME).stem]["max"]) == MAX


def test_grading_official_folders_changes_nothing(official):
    _, before, after = official
    assert before == after


def test_grade_rejects_missing_paths(tmp_path, capsys):
    assert cli(["grade", str(tmp_path / "nope")]) == 2
    assert cli(["grade", str(tmp_path)]) == 2      # an empty folder: nothing to grade


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is only enforced on Linux")
def test_kernel_memory_cap(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import resource\nprint(resource.getrlimit(resource.RLIMIT_AS)[0])"),
        nbformat.v4.new_code_cell("x = bytearray(3 * 2**30)"),    # 3 GiB: more than the 2 GiB cap
        nbformat.v4.new_code_cell("print('still alive')"),
    ])
    nbformat.write(nb, tmp_path / "mem.ipynb")
    records, notes, executed = grade.run_notebook(tmp_path / "mem.ipynb", timeout=30, memory_mb=2048)
    assert notes == []
    assert executed.cells[0].outputs[0]["text"].strip() == str(2048 * 2**20)
    assert executed.cells[1].outputs[0]["ename"] == "MemoryError"
    assert executed.cells[2].outputs[0]["text"].strip() == "still alive"
