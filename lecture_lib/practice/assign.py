"""Generate exercises/ from solutions/:  python -m lecture_lib assign [--check]

Per-student worksheets:  python -m lecture_lib assign --roster roster.csv --secret-file KEY [--out DIR]
writes DIR/<student>/<notebook>.ipynb (default DIR: worksheets/): the exercise notebook plus, before its
first code cell, a locked cell with that student's own givens (`variants.use_givens`), drawn from the
student id and the course secret (see `variants`). exercises/ is not touched.

Markers (nbgrader's own; the nbgrader cell metadata that goes with them is derived, see below):

Code cell (the answer cell; the check call sits in the next cell, or after the block):

    ### BEGIN SOLUTION answer [ms]
    answer = step.weights / units.MS
    ### END SOLUTION

The optional text after `BEGIN SOLUTION` names the variable and, in brackets, the unit; the block is
replaced by one stub line:

    answer = ...  # your answer, in ms

Units with a special stub: [choice] -> "# your answer: one letter, as a string"; [expression] ->
"# your answer: a SymPy expression"; [×] -> "# your answer: a ratio (×)". Without a name, the stub is "answer = ...  # your answer".

Markdown cell (worked explanation, hidden in the exercise), e.g.

    <!-- ### BEGIN SOLUTION -->
    The weights are read once per step ...
    <!-- ### END SOLUTION -->

is replaced by a line saying that the explanation is in the solutions notebook. A name after the marker
(`<!-- ### BEGIN SOLUTION explain_bound -->`) is its nbgrader grade_id.

nbgrader metadata is DERIVED here, never kept by hand in solutions/ (whose .ipynb/.py pairs carry none):

    answer cell   (code, a BEGIN SOLUTION block; its problem is the check("ID", ...) after the block or
                  in the next code cell)     -> solution, grade_id "<ID>_answer", unlocked
    check cell    (code, one check("ID", ...) call)
                                             -> grade, grade_id "<ID>", points from the problem bank
                                                (`problems.get(ID).points`), locked
    explanation   (markdown, a BEGIN SOLUTION block)
                                             -> manually graded answer, 0 points, grade_id from the marker
                                                (else "<ID of the last check>_explain")
    (an answer cell that also holds its own check call is a solution + grade cell with the points)

with "." in problem ids written "_" (nbgrader's grade_id alphabet). Every other cell gets no nbgrader
metadata. Unknown problem ids and duplicate grade ids are errors naming the notebook and cell.

Regenerating never loses work: an exercise notebook that differs from what would be written (a learner's
answers, say) is first copied to `NAME.ipynb.bak-YYYYmmdd-HHMMSS` beside it.

The output is deterministic (outputs and execution counts stripped, cell ids kept, nbformat's stable
JSON), so `assign --check` compares bytes: it fails, naming the files, when exercises/ is missing a
notebook, has an extra one, or differs from what would be generated (e.g. after a hand edit).
"""
from __future__ import annotations

import copy
import os
import re
import shutil
import sys
import time
from pathlib import Path

import nbformat

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
_BEGIN_RE = re.compile(r"^(?P<indent>\s*)(?:<!--\s*)?### BEGIN SOLUTION\b(?P<rest>.*)$")
_SPEC_RE = re.compile(r"^\s*(?P<var>[A-Za-z_]\w*)?\s*(?:\[(?P<unit>[^\]]*)\])?\s*(?:-->)?\s*$")
_MD_NAME_RE = re.compile(r"^\s*(?P<gid>[A-Za-z0-9_-]+)?\s*(?:-->)?\s*$")
_CHECK_RE = re.compile(r"""\bcheck\(\s*(?P<q>["'])(?P<pid>[^"']+)(?P=q)""")
MARKDOWN_STUB = "*(The worked explanation is in the solutions notebook.)*"
NBGRADER_SCHEMA = 3


def stub_line(var: str | None, unit: str | None, indent: str = "") -> str:
    """The line that replaces a code solution block."""
    var = var or "answer"
    if unit is None or unit == "":
        comment = "# your answer"
    elif unit == "choice":
        comment = "# your answer: one letter, as a string"
    elif unit in ("×", "x", "ratio"):
        comment = "# your answer: a ratio (×)"
    elif unit == "expression":
        comment = "# your answer: a SymPy expression"
    else:
        comment = f"# your answer, in {unit}"
    return f"{indent}{var} = ...  {comment}"


def strip_solutions(source: str, cell_type: str = "code", where: str = "") -> str:
    """Replace every BEGIN/END SOLUTION block in `source` by its stub (ValueError on bad markers)."""
    out, inside = [], False
    for line in source.split("\n"):
        m = _BEGIN_RE.match(line)
        if m:
            if inside:
                raise ValueError(f"{where}: nested '{BEGIN}'")
            inside = True
            if cell_type == "code":
                spec = _SPEC_RE.match(m.group("rest"))
                if spec is None:
                    raise ValueError(f"{where}: cannot read the marker {line.strip()!r}; "
                                     f"write '{BEGIN} answer [unit]'")
                out.append(stub_line(spec.group("var"), spec.group("unit"), m.group("indent")))
            else:
                out.append(MARKDOWN_STUB)
        elif END in line:
            if not inside:
                raise ValueError(f"{where}: '{END}' without a matching '{BEGIN}'")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"{where}: '{BEGIN}' without a matching '{END}'")
    return "\n".join(out)


def clean_notebook(nb) -> None:
    """Strip outputs and execution counts in place (the committed form of every notebook)."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)


def _nbgrader(grade_id: str, *, solution: bool, grade: bool, locked: bool, points=None) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": NBGRADER_SCHEMA,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return meta


def _points(pid: str, where: str):
    from .problems import get, load_banks
    load_banks()
    try:
        return get(pid).points
    except KeyError as err:
        raise ValueError(f"{where}: check({pid!r}) names no problem in the bank ({err.args[0]})") from None


def nbgrader_metadata(nb, name: str = "") -> list[dict | None]:
    """The nbgrader cell metadata of each cell of a solutions notebook, derived from its content
    (see the module docstring); None for a cell that is not part of the grading."""
    from .problems import nbgrader_id

    def checks(cell):
        return [m.group("pid") for m in _CHECK_RE.finditer(cell.source)] if cell.cell_type == "code" else []

    metas: list[dict | None] = []
    last_pid = None
    for i, cell in enumerate(nb.cells):
        where = f"{name} cell {i}"
        meta = None
        has_block = cell.cell_type in ("code", "markdown") and BEGIN in cell.source
        if cell.cell_type == "code" and has_block:
            after = cell.source.split(END, 1)[1] if END in cell.source else ""
            own = [m.group("pid") for m in _CHECK_RE.finditer(after)]
            if own:                                           # the check sits after the block
                pid = own[0]
                meta = _nbgrader(nbgrader_id(pid), solution=True, grade=True, locked=False,
                                 points=_points(pid, where))
                last_pid = pid
            else:                                             # the check is in the next code cell
                nxt = next((c for c in nb.cells[i + 1:] if c.cell_type == "code"), None)
                found = checks(nxt) if nxt is not None else []
                if not found:
                    raise ValueError(f"{where}: a solution block needs a check(\"ID\", ...) call after it, "
                                     f"in the same cell or the next code cell")
                meta = _nbgrader(f"{nbgrader_id(found[0])}_answer", solution=True, grade=False,
                                 locked=False)
        elif cell.cell_type == "code" and checks(cell):
            found = checks(cell)
            if len(found) > 1:
                raise ValueError(f"{where}: one check() per cell, so that each problem has its own "
                                 f"nbgrader grade_id (found {found})")
            pid = last_pid = found[0]
            meta = _nbgrader(nbgrader_id(pid), solution=False, grade=True, locked=True,
                             points=_points(pid, where))
        elif cell.cell_type == "markdown" and has_block:
            first = next(line for line in cell.source.split("\n") if _BEGIN_RE.match(line))
            named = _MD_NAME_RE.match(_BEGIN_RE.match(first).group("rest"))
            if named and named.group("gid"):
                gid = named.group("gid")
            elif last_pid is not None:
                gid = f"{nbgrader_id(last_pid)}_explain"
            else:
                raise ValueError(f"{where}: name the explanation, `<!-- {BEGIN} explain_NAME -->` "
                                 f"(no check() before it to name it after)")
            meta = _nbgrader(gid, solution=True, grade=True, locked=False, points=0)
        metas.append(meta)
    seen: dict[str, int] = {}
    for i, meta in enumerate(metas):
        if meta is not None:
            if meta["grade_id"] in seen:
                raise ValueError(f"{name} cells {seen[meta['grade_id']]} and {i}: duplicate nbgrader "
                                 f"grade_id {meta['grade_id']!r}")
            seen[meta["grade_id"]] = i
    return metas


def make_exercise(nb, name: str = "") -> nbformat.NotebookNode:
    """The exercise version of a solutions notebook (a new object; `nb` is not modified):
    solutions stubbed, outputs stripped, nbgrader metadata derived (see `nbgrader_metadata`)."""
    ex = copy.deepcopy(nb)
    clean_notebook(ex)
    ex.metadata.pop("jupytext", None)          # the solutions' pairing settings; exercises are unpaired
    for cell, meta in zip(ex.cells, nbgrader_metadata(ex, name)):
        if meta is None:
            cell.metadata.pop("nbgrader", None)
        else:
            cell.metadata["nbgrader"] = meta
    for i, cell in enumerate(ex.cells):
        if cell.cell_type in ("code", "markdown") and "BEGIN SOLUTION" in cell.source:
            cell.source = strip_solutions(cell.source, cell.cell_type, f"{name} cell {i}")
    ex.metadata.setdefault("lecture_lib", {})
    ex.metadata["lecture_lib"] = {"generated_from": f"solutions/{name}",
                                  "note": "generated by `python -m lecture_lib assign`; do not edit"}
    return ex


def render(nb) -> str:
    """Stable text of a notebook (nbformat's JSON: sorted keys, indent 1, trailing newline)."""
    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def default_root() -> Path:
    """The course's root folder: the one above lecture_lib/ if it has solutions/, else the cwd."""
    here = Path(__file__).resolve().parents[2]
    return here if (here / "solutions").is_dir() else Path.cwd()


def generate(solutions: Path, exercises: Path, check_only: bool = False, out=None) -> int:
    """Write (or with check_only, compare) exercises/ from solutions/. Returns an exit status."""
    out = out or sys.stdout
    solutions, exercises = Path(solutions), Path(exercises)
    if not solutions.is_dir():
        print(f"assign: solutions folder {solutions} does not exist", file=out)
        return 2
    sources = sorted(solutions.glob("*.ipynb"))
    expected = {}
    for src in sources:
        nb = nbformat.read(src, as_version=4)
        expected[src.name] = render(make_exercise(nb, src.name))
    if not check_only:
        exercises.mkdir(parents=True, exist_ok=True)
        for name, text in expected.items():
            target = exercises / name
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                if target.exists():      # it may hold a learner's answers: never lose them
                    backup = target.with_name(f"{target.name}.bak-{time.strftime('%Y%m%d-%H%M%S')}")
                    shutil.copy2(target, backup)
                    print(f"kept the previous {target.name} as {backup.name}", file=out)
                tmp = target.with_name(f".{target.name}.tmp")
                tmp.write_text(text, encoding="utf-8")
                os.replace(tmp, target)
                print(f"wrote {target}", file=out)
        for extra in sorted(set(p.name for p in exercises.glob("*.ipynb")) - set(expected)):
            print(f"note: {exercises / extra} has no source in {solutions}/ (left alone)", file=out)
        print(f"assign: {len(expected)} exercise notebook(s) up to date in {exercises}", file=out)
        return 0
    problems = []
    for name, text in expected.items():
        target = exercises / name
        if not target.exists():
            problems.append(f"missing: {target}")
        elif target.read_text(encoding="utf-8") != text:
            problems.append(f"differs from its solution source (hand edit or stale): {target}")
    present = set(p.name for p in exercises.glob("*.ipynb")) if exercises.is_dir() else set()
    for extra in sorted(present - set(expected)):
        problems.append(f"extra (no source in {solutions}/): {exercises / extra}")
    if problems:
        print("assign --check: exercises/ is out of sync with solutions/:", file=out)
        for p in problems:
            print(f"  {p}", file=out)
        print("Run `python -m lecture_lib assign` to regenerate (never edit exercises/ by hand).",
              file=out)
        return 1
    print(f"assign --check: {len(expected)} exercise notebook(s) in sync", file=out)
    return 0


def variant_worksheet(nb, name: str, student: str, secret: str):
    """The exercise version of solutions notebook `nb` for one student: the student's own givens
    (`variants.draw`) in a cell of their own before the first code cell. Without varying givens it
    is the plain exercise."""
    from . import variants
    ex = make_exercise(nb, name)
    number = name[:2]
    try:
        values = variants.draw(secret, student, number) if number.isdigit() else {}
    except KeyError:             # no bank for this notebook: nothing varies
        values = {}
    ex.metadata["lecture_lib"]["student"] = student
    if values:
        cell = nbformat.v4.new_code_cell(variants.variant_cell_source(number, student, values),
                                         id="variant-givens")
        cell.metadata["nbgrader"] = _nbgrader("variant_givens", solution=False, grade=False, locked=True)
        first = next((i for i, c in enumerate(ex.cells) if c.cell_type == "code"), len(ex.cells))
        ex.cells.insert(first, cell)
    return ex


def generate_variants(solutions: Path, out: Path, roster: list[str], secret: str, out_stream=None) -> int:
    """Write out/<student>/<notebook>.ipynb for every student of the roster and every solutions
    notebook (see `variant_worksheet`). Returns an exit status."""
    out_stream = out_stream or sys.stdout
    sources = sorted(Path(solutions).glob("*.ipynb"))
    if not sources:
        print(f"assign: no notebooks in {solutions}", file=out_stream)
        return 2
    notebooks = [(src.name, nbformat.read(src, as_version=4)) for src in sources]
    for student in roster:
        if not re.fullmatch(r"[\w.@+-]+", student) or student.startswith("."):
            print(f"assign: student id {student!r} cannot be a folder name (letters, digits, . _ - @ +)",
                  file=out_stream)
            return 2
    for student in roster:
        folder = Path(out) / student
        folder.mkdir(parents=True, exist_ok=True)
        for name, nb in notebooks:
            (folder / name).write_text(render(variant_worksheet(nb, name, student, secret)), encoding="utf-8")
    print(f"assign: wrote {len(notebooks)} worksheet(s) for each of {len(roster)} student(s) in {out}/",
          file=out_stream)
    return 0


def add_arguments(parser) -> None:
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 naming the files if exercises/ is out of sync")
    parser.add_argument("--root", type=Path, default=None,
                        help="course root holding solutions/ and exercises/ (default: the repo)")
    parser.add_argument("--solutions", type=Path, default=None, help="solutions folder")
    parser.add_argument("--exercises", type=Path, default=None, help="exercises folder")
    parser.add_argument("--roster", type=Path, default=None,
                        help="roster CSV (column `student`): write one set of worksheets per student, "
                             "with their own numbers, to --out")
    parser.add_argument("--out", type=Path, default=Path("worksheets"),
                        help="folder for --roster worksheets (default: worksheets/)")
    parser.add_argument("--secret-file", type=Path, default=None,
                        help="file whose first line is the course secret (for --roster)")
    parser.add_argument("--secret", default=None, help="the course secret itself (prefer --secret-file)")


def main(args) -> int:
    root = args.root or default_root()
    if getattr(args, "roster", None):
        from . import variants
        try:
            roster = variants.read_roster(args.roster)
            secret = variants.read_secret(args.secret, args.secret_file)
        except (ValueError, OSError) as exc:
            print(f"assign: {exc}", file=sys.stderr)
            return 2
        return generate_variants(args.solutions or root / "solutions", args.out, roster, secret)
    return generate(args.solutions or root / "solutions", args.exercises or root / "exercises",
                    check_only=args.check)
