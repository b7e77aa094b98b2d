"""An nbgrader course folder from solutions/:  python -m lecture_lib nbgrader DIR [--solutions DIR]

Writes DIR/nbgrader_config.py and DIR/source/<assignment>/<assignment>.ipynb for every solutions
notebook (assignment = the notebook's name without .ipynb). Then, in DIR, nbgrader's own flow:

    nbgrader generate_assignment 01_roofline_and_batching
    nbgrader autograde 01_roofline_and_batching        # submitted/<student>/01_roofline_and_batching/
    nbgrader generate_feedback 01_roofline_and_batching;  nbgrader export

What differs from loading solutions/ into nbgrader as they are, and why:
- the stub: each answer cell gets the course's own stub line (`answer = ...  # your answer, in ms`,
  unit from the marker), written just above its solution region, and nbgrader's code stub is empty
  (`ClearSolutions.code_stub`), so an unanswered problem is "not answered" in check(), instead of
  nbgrader's `raise NotImplementedError()` (which left `answer` holding the previous problem's value);
- every test cell imports `check` itself (`from lecture_lib.practice import check`), and autograde
  restores test cells from the source, so `def check(*a): pass` in an answer cell scores nothing;
  the other code cells (imports, the printed numbers) are locked;
- worked explanations are NOT graded cells (nbgrader would make them manually graded answers): the
  source carries the one-line pointer to solutions/ instead.
Caveat: nbgrader runs check() inside the student's kernel and trusts its exceptions, so a notebook that
patches lecture_lib in the kernel can still fool autograde. `python -m lecture_lib grade` does not
trust the kernel (see grade.py); use it, or both, when marks matter.
"""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import nbformat

from .assign import (BEGIN, END, MARKDOWN_STUB, _BEGIN_RE, _SPEC_RE, _nbgrader, clean_notebook,
                     default_root, nbgrader_metadata, render, stub_line)

CHECK_IMPORT = "from lecture_lib.practice import check   # here, so no redefined check() can score"

CONFIG = '''\
# nbgrader configuration for this course, written by `python -m lecture_lib nbgrader`.
c = get_config()  # noqa: F821
c.CourseDirectory.root = "."
# The course's stub line (`answer = ...  # your answer, in <unit>`) is written above each solution
# region in source/, so nbgrader's own stub is empty: nothing raises NotImplementedError.
c.ClearSolutions.code_stub = {"python": ""}
c.ClearSolutions.text_stub = "*(The worked explanation is in the solutions notebook.)*"
c.ClearSolutions.begin_solution_delimeter = "BEGIN SOLUTION"
c.ClearSolutions.end_solution_delimeter = "END SOLUTION"
c.ClearSolutions.enforce_metadata = True
# every cell of a worksheet runs in well under a minute
c.Execute.timeout = 120
'''


def _answer_cell(source: str) -> str:
    """Stub line first, then a plain solution region (nbgrader replaces it by the empty stub)."""
    out = []
    for line in source.split("\n"):
        m = _BEGIN_RE.match(line)
        if m:
            spec = _SPEC_RE.match(m.group("rest"))
            indent = m.group("indent")
            out.append(stub_line(spec.group("var") if spec else None, spec.group("unit") if spec else None,
                                 indent))
            out.append(f"{indent}{BEGIN}")
        else:
            out.append(line)
    return "\n".join(out)


def source_notebook(nb, name: str = ""):
    """The nbgrader source version of a solutions notebook (a new object)."""
    src = copy.deepcopy(nb)
    clean_notebook(src)
    src.metadata.pop("jupytext", None)
    metas = nbgrader_metadata(src, name)
    for i, (cell, meta) in enumerate(zip(src.cells, metas)):
        cell.metadata.pop("nbgrader", None)
        if cell.cell_type == "markdown":
            if meta is not None:                    # a worked explanation: not graded, not released
                cell.source = MARKDOWN_STUB
            continue
        if cell.cell_type != "code":
            continue
        if meta is None:                            # imports, printed numbers: read-only
            meta = _nbgrader(f"locked_{cell.get('id') or i}".replace(".", "_"), solution=False,
                             grade=False, locked=True)
        if meta["solution"]:
            cell.source = _answer_cell(cell.source)
        if meta["grade"]:
            cell.source = CHECK_IMPORT + "\n" + cell.source if BEGIN not in cell.source else \
                cell.source.replace(END, END + "\n" + CHECK_IMPORT, 1)
        cell.metadata["nbgrader"] = meta
    return src


def write_course(out: Path, solutions: Path) -> list[str]:
    """Write the nbgrader course folder; returns the assignment names."""
    out = Path(out)
    names = []
    for path in sorted(Path(solutions).glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        folder = out / "source" / path.stem
        folder.mkdir(parents=True, exist_ok=True)
        (folder / path.name).write_text(render(source_notebook(nb, path.name)), encoding="utf-8")
        names.append(path.stem)
    (out / "nbgrader_config.py").write_text(CONFIG, encoding="utf-8")
    return names


def add_arguments(parser) -> None:
    parser.add_argument("out", type=Path, metavar="DIR", help="the nbgrader course folder to write")
    parser.add_argument("--solutions", type=Path, default=None, help="solutions folder (default: the course's)")


def main(args) -> int:
    solutions = args.solutions or default_root() / "solutions"
    try:
        names = write_course(args.out, solutions)
    except (ValueError, OSError) as exc:
        print(f"nbgrader: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}/nbgrader_config.py and {len(names)} assignment(s) in {args.out}/source/: "
          + ", ".join(names))
    print(f"next: cd {args.out} && nbgrader generate_assignment {names[0] if names else 'NAME'}")
    return 0
