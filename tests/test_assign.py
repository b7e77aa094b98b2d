"""`python -m lecture_lib assign`: exercises/ generated from solutions/, byte-exact --check."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from lecture_lib.__main__ import main as cli
from lecture_lib.practice import assign, load_banks
from lecture_lib.practice.problems import get, nbgrader_id

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
CHECK_RE = re.compile(r'check\("([^"]+)",\s*(\w+)\)')


def test_code_block_becomes_a_stub_with_name_and_unit():
    src = "x = 1\n### BEGIN SOLUTION answer [ms]\nanswer = 2 * x\nmore = 3\n### END SOLUTION\ncheck('01.a', answer)"
    out = assign.strip_solutions(src)
    assert out == "x = 1\nanswer = ...  # your answer, in ms\ncheck('01.a', answer)"


@pytest.mark.parametrize("marker, stub", [
    ("### BEGIN SOLUTION", "answer = ...  # your answer"),
    ("### BEGIN SOLUTION ratio [×]", "ratio = ...  # your answer: a ratio (×)"),
    ("### BEGIN SOLUTION answer [choice]", "answer = ...  # your answer: one letter, as a string"),
    ("    ### BEGIN SOLUTION expr [expression]", "    expr = ...  # your answer: a SymPy expression"),
])
def test_stub_variants(marker, stub):
    assert assign.strip_solutions(f"{marker}\nsecret\n### END SOLUTION") == stub


def test_markdown_block_is_replaced():
    src = "Question.\n<!-- ### BEGIN SOLUTION -->\nThe secret reasoning.\n<!-- ### END SOLUTION -->\nAfter."
    out = assign.strip_solutions(src, "markdown")
    assert "secret" not in out and out.startswith("Question.") and out.endswith("After.")
    assert assign.MARKDOWN_STUB in out


@pytest.mark.parametrize("src", [
    "### BEGIN SOLUTION\na\n### BEGIN SOLUTION\nb\n### END SOLUTION",
    "### BEGIN SOLUTION\na",
    "a\n### END SOLUTION",
    "### BEGIN SOLUTION answer [ms] extra words\na\n### END SOLUTION",
])
def test_bad_markers_are_errors(src):
    with pytest.raises(ValueError):
        assign.strip_solutions(src, where="nb cell 3")


def test_make_exercise_strips_outputs_keeps_checks_and_does_not_touch_the_source():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("### BEGIN SOLUTION answer [s]\nanswer = 42\n### END SOLUTION",
                                  id="a", execution_count=3,
                                  outputs=[nbformat.v4.new_output("stream", text="hi")]),
        nbformat.v4.new_code_cell('check("01.t_compute_ms", answer)', id="b"),
    ])
    before = nbformat.writes(nb)
    ex = assign.make_exercise(nb, "demo.ipynb")
    assert nbformat.writes(nb) == before
    assert ex.cells[0].source == "answer = ...  # your answer, in s"
    assert ex.cells[0].outputs == [] and ex.cells[0].execution_count is None
    assert ex.cells[1].source == 'check("01.t_compute_ms", answer)'
    assert assign.render(ex) == assign.render(assign.make_exercise(nb, "demo.ipynb"))   # deterministic


def test_real_exercises_are_in_sync():
    assert SOLUTIONS, "no solutions notebooks"
    assert cli(["assign", "--check"]) == 0


def test_cli_exit_status_in_a_subprocess():
    r = subprocess.run([sys.executable, "-m", "lecture_lib", "assign", "--check"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def _copy_course(tmp_path):
    for d in ("solutions", "exercises"):
        shutil.copytree(ROOT / d, tmp_path / d)
    return tmp_path


def test_hand_edit_missing_and_extra_files_fail_the_check(tmp_path, capsys):
    root = _copy_course(tmp_path)
    name = SOLUTIONS[0].name
    target = root / "exercises" / name
    target.write_text(target.read_text().replace("your answer", "my answer", 1))   # a hand edit
    assert cli(["assign", "--check", "--root", str(root)]) == 1
    assert name in capsys.readouterr().out

    target.unlink()                                                                   # missing
    (root / "exercises" / "stray.ipynb").write_text("{}")                             # extra
    assert cli(["assign", "--check", "--root", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"missing: {target}" in out and "stray.ipynb" in out

    (root / "exercises" / "stray.ipynb").unlink()
    assert cli(["assign", "--root", str(root)]) == 0                                  # regenerate
    assert cli(["assign", "--check", "--root", str(root)]) == 0
    assert target.read_bytes() == (ROOT / "exercises" / name).read_bytes()


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_solution_notebooks_are_clean_and_exercises_nbgrader_ready(path):
    """solutions/ carry no hand-kept nbgrader metadata; assign derives it into exercises/."""
    load_banks()
    nb = nbformat.read(path, as_version=4)
    ex = nbformat.read(ROOT / "exercises" / path.name, as_version=4)
    checks = 0
    for cell, ex_cell in zip(nb.cells, ex.cells):
        assert cell.get("id") == ex_cell.get("id")
        assert "nbgrader" not in cell.metadata, "nbgrader metadata is derived by assign, not kept by hand"
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "commit notebooks without outputs"
        meta = ex_cell.metadata.get("nbgrader")
        for pid, var in CHECK_RE.findall(cell.source):
            checks += 1
            assert meta == {"grade": True, "grade_id": nbgrader_id(pid), "locked": True,
                            "points": get(pid).points, "schema_version": 3, "solution": False,
                            "task": False}
        if "BEGIN SOLUTION" in cell.source and cell.cell_type == "code":
            assert meta["solution"] is True and meta["grade"] is False and meta["locked"] is False
            assert meta["grade_id"].endswith("_answer") and "points" not in meta
        if "BEGIN SOLUTION" in cell.source and cell.cell_type == "markdown":
            assert meta["solution"] is True and meta["grade"] is True and meta["points"] == 0
        if "BEGIN SOLUTION" not in cell.source and not CHECK_RE.search(cell.source):
            assert meta is None
        assert "BEGIN SOLUTION" not in ex_cell.source
    assert checks >= 8
    assert len(nb.cells) == len(ex.cells)
    assert "jupytext" not in ex.metadata, "exercises are not jupytext-paired"


def _nb(*cells):
    return nbformat.v4.new_notebook(cells=[
        (nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell)(src, id=f"c{i}")
        for i, (kind, src) in enumerate(cells)])


def test_nbgrader_metadata_is_derived_from_markers_and_check_calls():
    load_banks()
    nb = _nb(("md", "Question 1."),
             ("code", "### BEGIN SOLUTION answer [ms]\nanswer = 1\n### END SOLUTION"),
             ("code", 'check("01.t_compute_ms", answer)'),
             ("md", "<!-- ### BEGIN SOLUTION explain_this -->\nWhy.\n<!-- ### END SOLUTION -->"),
             ("md", "<!-- ### BEGIN SOLUTION -->\nWhy, unnamed.\n<!-- ### END SOLUTION -->"),
             ("code", "### BEGIN SOLUTION\nanswer = 2\n### END SOLUTION\ncheck('01.cost_per_mtok', answer)"),
             ("code", "print('not graded')"))
    nb.cells[2].metadata["nbgrader"] = {"grade_id": "stale", "points": 99}     # hand-kept: overridden
    metas = assign.nbgrader_metadata(nb, "demo.ipynb")
    assert metas[0] is None and metas[6] is None
    assert metas[1] == {"grade": False, "grade_id": "01_t_compute_ms_answer", "locked": False,
                        "schema_version": 3, "solution": True, "task": False}
    assert metas[2] == {"grade": True, "grade_id": "01_t_compute_ms", "locked": True,
                        "points": get("01.t_compute_ms").points, "schema_version": 3,
                        "solution": False, "task": False}
    assert metas[3]["grade_id"] == "explain_this" and metas[3]["points"] == 0 and metas[3]["solution"]
    assert metas[4]["grade_id"] == "01_t_compute_ms_explain"
    assert metas[5]["grade_id"] == "01_cost_per_mtok" and metas[5]["solution"] and metas[5]["grade"]
    assert metas[5]["points"] == get("01.cost_per_mtok").points
    ex = assign.make_exercise(nb, "demo.ipynb")
    assert [c.metadata.get("nbgrader") for c in ex.cells] == metas
    assert nb.cells[2].metadata["nbgrader"]["grade_id"] == "stale"              # the source is untouched


@pytest.mark.parametrize("cells, message", [
    ((("code", "### BEGIN SOLUTION\na = 1\n### END SOLUTION"), ("code", "print(a)")), "check"),
    ((("code", 'check("01.no_such_problem", answer)'),), "no problem"),
    ((("code", 'check("01.t_compute_ms", a)\ncheck("01.cost_per_mtok", b)'),), "one check"),
    ((("code", 'check("01.t_compute_ms", a)'), ("code", 'check("01.t_compute_ms", b)')), "duplicate"),
    ((("md", "<!-- ### BEGIN SOLUTION -->\nWhy.\n<!-- ### END SOLUTION -->"),), "name the explanation"),
])
def test_underivable_nbgrader_metadata_is_an_error(cells, message):
    with pytest.raises(ValueError, match=message):
        assign.nbgrader_metadata(_nb(*cells), "demo.ipynb")


def test_regenerating_keeps_a_learners_answers_as_a_backup(tmp_path):
    """`assign` over an exercise a learner has filled in must not lose their work."""
    import shutil

    from lecture_lib.practice import assign

    root = Path(__file__).resolve().parents[1]
    shutil.copytree(root / "solutions", tmp_path / "solutions", ignore=shutil.ignore_patterns("*.py"))
    exercises = tmp_path / "exercises"
    assert assign.generate(tmp_path / "solutions", exercises) == 0
    target = sorted(exercises.glob("*.ipynb"))[0]
    worked = target.read_text(encoding="utf-8").replace("answer = ...", "answer = 42.0", 1)
    assert worked != target.read_text(encoding="utf-8")
    target.write_text(worked, encoding="utf-8")
    assert assign.generate(tmp_path / "solutions", exercises) == 0
    backups = list(exercises.glob(target.name + ".bak-*"))
    assert len(backups) == 1 and backups[0].read_text(encoding="utf-8") == worked
    assert "answer = 42.0" not in target.read_text(encoding="utf-8")
    assert assign.generate(tmp_path / "solutions", exercises, check_only=True) == 0
