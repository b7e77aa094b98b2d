"""The grader: full marks for solutions/, zero for exercises/, bad submissions scored, nothing modified.

Kept fast: one grade call for solutions/, one for exercises/, and ONE call for a whole class of
awkward submissions (raises, loops, os._exit, os.kill, not JSON, missing problems, memory hog).
"""
import contextlib
import csv
import importlib
import io
import sys
from pathlib import Path

import nbformat
import pytest

from lecture_lib.__main__ import main as cli
from lecture_lib.practice import load_banks
from practice_helpers import ROOT, digests, fill_from_solutions

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


def _nb_with(cells_before_checks, extra_cells, keep=None):
    """A filled (right-answer) notebook; `keep` = number of problems kept; extra cells inserted."""
    nb = fill_from_solutions(ROOT / "exercises" / NAME)
    if keep is not None:    # cut the notebook after the keep-th check cell
        seen, cut = 0, len(nb.cells)
        for i, c in enumerate(nb.cells):
            if c.cell_type == "code" and c.source.startswith("check("):
                seen += 1
                if seen == keep:
                    cut = i + 1
                    break
        nb.cells = nb.cells[:cut]
    pos = next(i for i, c in enumerate(nb.cells) if c.source.startswith("check(")) + 1 \
        if cells_before_checks is None else cells_before_checks
    for j, src in enumerate(extra_cells):
        nb.cells.insert(pos + j, nbformat.v4.new_code_cell(src, id=f"extra-{j}"))
    return nb


@pytest.fixture(scope="module")
def awkward_class(tmp_path_factory):
    """One grade call over a class of awkward submissions; returns (outdir, csv rows, stdout)."""
    base = tmp_path_factory.mktemp("class")
    sub = base / "submitted"
    sub.mkdir()
    w = lambda name, nb: nbformat.write(nb, sub / name)   # noqa: E731
    # raises in its first cell, tries to take 64 GB (the memory cap makes that a MemoryError) and
    # calls sys.exit (IPython turns it into an error): every check still runs
    hog = ["x = bytearray(64 * 2**30)"] if sys.platform == "linux" else []   # RLIMIT_AS: Linux only
    nb = _nb_with(1, ["raise RuntimeError('boom')"] + hog)
    nb.cells.insert(9, nbformat.v4.new_code_cell("import sys; sys.exit(3)", id="exit"))
    nbformat.write(nb, sub / "troublemaker.ipynb")
    # answers problem 1 right, then loops forever
    w("looper.ipynb", _nb_with(None, ["while True:\n    pass"]))
    # answers problem 1 right, then kills its kernel two ways
    w("exiter.ipynb", _nb_with(None, ["import os\nos._exit(1)"]))
    w("killer.ipynb", _nb_with(None, ["import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"]))
    # not JSON at all
    (sub / "garbage.ipynb").write_text("{ this is not a notebook")
    # deleted all but the first three problems
    w("partial.ipynb", _nb_with(None, [], keep=3))
    # a folder of folders: nbgrader's submitted/<student>/<notebook> layout
    alice = base / "class" / "alice"
    alice.mkdir(parents=True)
    nbformat.write(fill_from_solutions(ROOT / "exercises" / NAME), alice / NAME)
    before = digests(base)
    out = base / "out"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        status = cli(["grade", str(sub), str(base / "class"), "--timeout", str(TIMEOUT_S),
                      "--memory-mb", "3072", "--csv", str(out / "grades.csv"),
                      "--feedback", str(out / "feedback")])
    assert status == 0
    after = digests(base / "submitted") | digests(base / "class")
    return out, read_csv(out / "grades.csv"), buf.getvalue(), before, after


def total(rows, student):
    return float(rows[student]["total"])


def test_bad_submissions_are_scored_and_the_batch_goes_on(awkward_class):
    out, rows, stdout, _, _ = awkward_class
    assert set(rows) == {"troublemaker", "looper", "exiter", "killer", "garbage", "partial", "alice"}
    first = load_banks()[IDS[0]].points
    assert total(rows, "troublemaker") == MAX      # errors in other cells cost nothing
    assert total(rows, "alice") == MAX             # student = folder name
    for who in ("looper", "exiter", "killer"):     # only the check before the trouble counts
        assert total(rows, who) == first, who
        assert float(rows[who][IDS[0]]) == first and float(rows[who][IDS[1]]) == 0
    assert total(rows, "garbage") == 0 and float(rows["garbage"]["max"]) == MAX
    assert total(rows, "partial") == sum(load_banks()[i].points for i in IDS[:3])
    assert all(float(rows[s]["max"]) == MAX for s in rows)
    notes = {s: rows[s]["notes"] for s in rows}
    assert "time limit" in notes["looper"]
    assert "kernel died" in notes["exiter"] and "kernel died" in notes["killer"]
    assert "not a valid notebook" in notes["garbage"]
    assert "looper" in stdout and "garbage" in stdout


def test_unreached_problems_say_so(awkward_class):
    out, *_ = awkward_class
    text = (out / "feedback" / "partial.md").read_text()
    assert "not reached / not answered" in text
    assert (out / "feedback" / "alice.md").exists()


def test_no_submission_is_modified(awkward_class):
    *_, before, after = awkward_class
    assert {p: h for p, h in before.items() if "out" not in p.parts} == after


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
