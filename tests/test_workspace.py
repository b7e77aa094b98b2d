"""The learner workspace (my_work/): copies made once, never overwritten, git-ignored; a wrong check
shows one clean message in Jupyter and still fails under nbval."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from lecture_lib.__main__ import main as cli
from lecture_lib.practice.workspace import WORKSPACE_DIR, ensure_workspace, fresh_copy

ROOT = Path(__file__).resolve().parents[1]
SHEETS = sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb"))


@pytest.fixture
def course(tmp_path):
    """A throwaway course folder: exercises/ copied from the real one."""
    root = tmp_path / "course"
    shutil.copytree(ROOT / "exercises", root / "exercises", ignore=shutil.ignore_patterns("*.bak-*"))
    return root


def test_first_use_copies_every_worksheet_and_a_readme(course):
    made = ensure_workspace(course)
    work = course / WORKSPACE_DIR
    assert sorted(p.name for p in made) == SHEETS
    for name in SHEETS:
        assert (work / name).read_bytes() == (course / "exercises" / name).read_bytes()
    assert "--fresh" in (work / "README.md").read_text()


def test_a_copy_is_never_overwritten_even_when_the_worksheet_changes(course):
    ensure_workspace(course)
    mine = course / WORKSPACE_DIR / SHEETS[0]
    mine.write_text("my answers")
    (course / "exercises" / SHEETS[0]).write_text("a newer worksheet")
    assert ensure_workspace(course) == []
    assert mine.read_text() == "my answers"
    (course / WORKSPACE_DIR / SHEETS[1]).unlink()               # a deleted copy comes back
    assert [p.name for p in ensure_workspace(course)] == [SHEETS[1]]


def test_fresh_keeps_the_old_copy_aside(course):
    ensure_workspace(course)
    mine = course / WORKSPACE_DIR / SHEETS[0]
    mine.write_text("my answers")
    new, aside = fresh_copy(SHEETS[0][:2], course)
    assert new == mine and new.read_bytes() == (course / "exercises" / SHEETS[0]).read_bytes()
    assert aside.read_text() == "my answers" and aside.name.startswith(SHEETS[0] + ".old-")
    with pytest.raises(ValueError, match="give one of"):
        fresh_copy("0", course)                                 # names two worksheets


def test_the_command(course, capsys):
    assert cli(["workspace", "--root", str(course)]) == 0
    assert "copied" in capsys.readouterr().out
    assert cli(["workspace", "--root", str(course)]) == 0
    assert "already there" in capsys.readouterr().out
    assert cli(["workspace", "--root", str(course), "--fresh", SHEETS[0][:2]]) == 0
    assert "old copy" in capsys.readouterr().out
    assert cli(["workspace", "--root", str(course / "nowhere")]) == 1


def test_make_lab_fills_the_workspace_before_opening_jupyterlab():
    out = subprocess.run(["make", "-n", "-s", "lab"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    ws = [i for i, ln in enumerate(lines) if "-m lecture_lib workspace" in ln]
    lab = [i for i, ln in enumerate(lines) if "jupyter lab" in ln]
    assert ws and lab and ws[0] < lab[0], out


def test_the_workspace_is_git_ignored_and_never_collected_by_pytest(tmp_path):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(["git", "check-ignore", "-q", f"{WORKSPACE_DIR}/{SHEETS[0]}"], cwd=ROOT, check=False)
    assert ignored.returncode == 0
    # pytest, with the course's configuration, on a tree that has a my_work/ notebook
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for d in ("tests", "notebooks", "solutions", WORKSPACE_DIR):
        (tmp_path / d).mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_x():\n    pass\n")
    shutil.copy(ROOT / "exercises" / SHEETS[0], tmp_path / WORKSPACE_DIR)
    import tomllib
    testpaths = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["testpaths"]
    assert not {".", "./", WORKSPACE_DIR} & set(testpaths)            # plain `pytest`, `make test`
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", "."],
                         cwd=tmp_path, capture_output=True, text=True, check=False).stdout   # `pytest .`
    assert "test_x" in out and WORKSPACE_DIR not in out, out


def test_answering_in_my_work_leaves_the_repository_clean():
    """The real thing: my_work/ inside this checkout, an answer saved in it, assign --check, git status."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    work = ROOT / WORKSPACE_DIR
    status = lambda: subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                                    text=True, check=True).stdout
    before = status()
    created = not work.exists()
    probe = work / f"test_probe_{SHEETS[0]}"
    try:
        ensure_workspace(ROOT)
        nb = nbformat.read(ROOT / "exercises" / SHEETS[0], as_version=4)
        answer = next(c for c in nb.cells if c.cell_type == "code" and "answer = ..." in c.source)
        answer.source = answer.source.replace("answer = ...", "answer = 42.0", 1)
        nbformat.write(nb, probe)
        assert cli(["assign", "--check"]) == 0
        assert status() == before
    finally:
        probe.unlink(missing_ok=True)
        if created:
            shutil.rmtree(work)


def _notebook(*sources):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    return nb


def _run(nb, folder):
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    return [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]


def test_a_wrong_check_in_jupyter_is_one_clean_message_and_hints_follow_the_tries(tmp_path):
    work = tmp_path / WORKSPACE_DIR
    work.mkdir()
    cells = ("from lecture_lib.practice import check",
             'check("01.t_compute_ms", 1.0)',              # wrong
             'check("01.t_compute_ms", ...)')              # unanswered
    first = _run(_notebook(*cells), work)
    assert [e.ename for e in first] == ["WrongAnswerError", "NotAnsweredError"]
    for e in first:
        shown = "\n".join(e.traceback)
        assert len(e.traceback) == 1 and shown == e.evalue, e.traceback      # the message, nothing else
        assert "Traceback" not in shown and "check.py" not in shown and "\x1b" not in shown
    assert "Hint:" in first[0].evalue and "(2)" not in first[0].evalue
    # a second run is a new kernel, like `pytest --nbval-lax my_work/...`: it shows what 2 tries earned
    second = _run(_notebook(*cells), work)
    assert "Hints: (1)" in second[0].evalue and "(2)" in second[0].evalue
    assert json.loads((work / ".check_tries.json").read_text()) == {"01.t_compute_ms": 2}


def test_an_unanswered_copy_still_fails_under_nbval(tmp_path):
    work = tmp_path / WORKSPACE_DIR
    work.mkdir()
    shutil.copy(ROOT / "exercises" / SHEETS[0], work)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider",
                          "--nbval-lax", "--nbval-current-env", str(work / SHEETS[0])],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 1, run.stdout[-2000:]
    assert "1 failed" in run.stdout and 'check("' in run.stdout and "not answered yet" in run.stdout
