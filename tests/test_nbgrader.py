"""Real nbgrader on the course's notebooks: `python -m lecture_lib nbgrader DIR`, then nbgrader's own
generate_assignment and autograde on a solved copy and an unsolved one that also redefines check().

Skipped only when nbgrader is not installed (pip install -e ".[test]" installs it), never under CI.
About 40 s: nbgrader itself is slow to start.
"""
import copy
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from lecture_lib.__main__ import main as cli
from lecture_lib.practice import load_banks
from lecture_lib.practice.nbgrader_course import CHECK_IMPORT, source_notebook
from practice_helpers import ROOT

try:
    import nbgrader  # noqa: F401
    HAVE = True
except ImportError:
    HAVE = False
if not HAVE and os.environ.get("CI") == "true":
    raise RuntimeError("CI=true but nbgrader is not installed: pip install -e '.[test]'")

ASSIGNMENT = "02_balance_batch"


def test_source_notebook_stub_locks_and_explanations():
    load_banks()
    nb = nbformat.read(ROOT / "solutions" / f"{ASSIGNMENT}.ipynb", as_version=4)
    src = source_notebook(nb, f"{ASSIGNMENT}.ipynb")
    for cell in src.cells:
        meta = cell.metadata.get("nbgrader")
        if cell.cell_type == "markdown":
            assert meta is None                           # explanations are not graded cells
            continue
        assert meta is not None
        if meta["grade"]:
            assert CHECK_IMPORT in cell.source and meta["locked"]
        elif not meta["solution"]:
            assert meta["locked"]
        if meta["solution"]:
            assert cell.source.index("answer = ...  # your answer") < cell.source.index("BEGIN SOLUTION")


def _nbgrader(course: Path, *args):
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    r = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r


@pytest.mark.skipif(not HAVE, reason="nbgrader is not installed (pip install -e '.[test]')")
def test_generate_and_autograde(tmp_path):
    course = tmp_path / "course"
    assert cli(["nbgrader", str(course)]) == 0
    _nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    release = nbformat.read(course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    source = nbformat.read(course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    text = nbformat.writes(release)
    assert "NotImplementedError" not in text and "BEGIN SOLUTION" not in text
    assert "answer = ...  # your answer, in sequences" in text
    for student, solved in (("solved", True), ("unsolved_cheat", False)):
        nb = copy.deepcopy(release)
        for cell, src in zip(nb.cells, source.cells):
            if cell.metadata.get("nbgrader", {}).get("solution") and cell.cell_type == "code":
                cell.source = src.source if solved else "def check(*a, **k): pass\n" + cell.source
        folder = course / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{ASSIGNMENT}.ipynb")
    _nbgrader(course, "autograde", ASSIGNMENT, "--force")
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        solved = gb.find_submission(ASSIGNMENT, "solved")
        cheat = gb.find_submission(ASSIGNMENT, "unsolved_cheat")
        assert solved.score == solved.max_score > 0
        assert cheat.score == 0 and cheat.max_score == solved.max_score
        assert solved.needs_manual_grade is False        # no explanation cell waits for a human
