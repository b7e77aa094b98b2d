"""Proof that the checks can fail: unanswered exercises fail exactly at their check cells, and an
exercise filled with the right answers passes `pytest --nbval-lax --nbval-current-env`."""
import importlib
import os
import subprocess
import sys

import nbformat
import pytest

from practice_helpers import ROOT, digests, fill_from_solutions

grade = importlib.import_module("lecture_lib.practice.grade")
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def test_there_are_exercises():
    assert EXERCISES


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.name)
def test_unanswered_exercise_fails_exactly_at_its_check_cells(path):
    before = digests(path.parent)
    captures, notes, nb = grade.run_notebook(path, timeout=60)
    assert digests(path.parent) == before
    assert notes == [] and nb is not None
    failing = {i for i, c in enumerate(nb.cells) if c.cell_type == "code"
               and any(o.get("output_type") == "error" for o in c.get("outputs", []))}
    checks = {i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "check(" in c.source}
    assert checks and failing == checks
    for i in checks:
        (err,) = [o for o in nb.cells[i].outputs if o.get("output_type") == "error"]
        assert err["ename"] == "NotAnsweredError"
    # what the grader takes out of the kernel, judged in its own process: every problem unanswered
    from lecture_lib.practice import problems
    checking = importlib.import_module("lecture_lib.practice.check")
    assert len(captures) == len(checks)
    for pid, caught in captures.items():
        last = caught[-1]
        assert last.kind == "value", (pid, last)
        assert checking.verdict(problems.get(pid), last.value)[0] == "unanswered", pid


def test_nbval_passes_filled_and_fails_unanswered(tmp_path):
    """One nbval run over two notebooks: the filled one passes, the unanswered one fails at its checks."""
    path = EXERCISES[0]
    nbformat.write(fill_from_solutions(path), tmp_path / "filled.ipynb")
    (tmp_path / "unanswered.ipynb").write_bytes(path.read_bytes())
    env = dict(os.environ, MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("LECTURE_LIB_RESULTS", None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider",
                        "--nbval-lax", "--nbval-current-env", "filled.ipynb", "unanswered.ipynb"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    failed = [line for line in r.stdout.splitlines() if line.startswith("FAILED ")]
    n_checks = sum("check(" in c.source for c in nbformat.read(path, as_version=4).cells
                   if c.cell_type == "code")
    assert "passed" in r.stdout, r.stdout[-3000:]
    assert not [f for f in failed if "filled.ipynb" in f], r.stdout[-3000:]
    assert len([f for f in failed if "unanswered.ipynb" in f]) == n_checks, r.stdout[-3000:]
