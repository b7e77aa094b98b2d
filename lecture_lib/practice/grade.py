"""Grade submitted notebooks:  python -m lecture_lib grade PATH... [--csv FILE] [--feedback DIR]
        [--timeout SECONDS] [--memory-mb MB] [--sandbox auto|bwrap|none] [--assignment NAME]
        [--roster roster.csv --secret-file FILE]

Who is the student:
- PATH is a notebook                   -> the student is the file name without .ipynb;
- PATH is a folder, notebooks in it    -> one student per notebook (file stem);
- PATH is a folder of folders          -> one student per sub-folder (its name), all notebooks
                                          found under it count for that student (nbgrader's
                                          `submitted/<student>/<assignment>/` layout works as is).

Which problems a notebook must answer: the check() calls of the solutions notebook it is graded as:
`--assignment NAME` if given; else the solutions notebook with the same file name; else the one most
of the batch's notebooks belong to (by the problem ids they check), else the one whose ids appear most
in it. A notebook whose problems belong to another assignment than the one it is graded as gets a note.

The grader trusts nothing the notebook's kernel says (see `capture`):
- each notebook runs on a private copy, top to bottom, with errors allowed, in a fresh kernel;
- after every cell that calls check("ID", x), the grader asks the kernel for the VALUE of x (a
  Jupyter `user_expressions` request, answered on the shell channel, never through cell output) and
  judges it in its own process, against the value it computes itself (`check.verdict`), with the
  student's own numbers when there is a roster (`variants`). One answer per problem: the last one.
  What check() printed, recorded or raised in the kernel does not count; no results file is read;
- before each answer cell the grader deletes the answer variable, so an answer cell that fails
  leaves "not answered", not the previous problem's answer.

Isolation (`sandbox`): only the copy is writable; with bwrap the file system is read-only apart from
the copy, the submissions, solutions and output folders are hidden, and there is no network; without
it every row says "not sandboxed". Every process a run starts is ended when it ends.
Limits per notebook: wall time `--timeout` (default 120 s, kernel start included; the kernel is killed
and the answers captured before still count); kernel address space `--memory-mb` (default 4096, env
LECTURE_LIB_GRADE_MEMORY_MB; 0 = none; Linux only); at most MAX_OUTPUT_CHARS of cell output kept.
A problem whose check never ran scores 0, "not reached / not answered". A notebook that is not valid
JSON, raises, loops, exits or kills its kernel is reported and scored; the batch goes on.
"""
from __future__ import annotations

import ast
import contextlib
import csv
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import capture
from . import problems as problem_bank
from . import sandbox as sandboxing
from . import variants
from .assign import default_root

DEFAULT_TIMEOUT_S = 120
DEFAULT_MEMORY_MB = int(os.environ.get("LECTURE_LIB_GRADE_MEMORY_MB", "4096"))
CHECK_SECONDS = 10        # the grader's own check of one answer (a huge SymPy answer cannot hang it)
_ID_RE = re.compile(r"""check\(\s*\\?["'](\d\d\.[\w.\-]+)\\?["']""")
_CALL_RE = re.compile(r"""\bcheck\(\s*(["'])(?P<pid>\d\d\.[\w.\-]+)\1\s*,\s*(?P<expr>[A-Za-z_]\w*)\s*\)""")
_CAPTURE = "__import__('lecture_lib.practice.capture', fromlist=['encode']).encode({})"
#: code that touches the checker's insides or the bank's answers: flagged for a human to look at
_SUSPICIOUS = re.compile(r"\.expected\s*\(|\bPROBLEMS\b|_CHECKERS|_record\b|\bRESULTS\b|"
                         r"LECTURE_LIB_RESULTS|practice\.check\b|problems\.get\b|\bsetsid\b|"
                         r"\bfork\s*\(|Popen|os\.system|start_new_session")

# the kernel: cap the address space, then start an ordinary ipykernel of this Python
_KERNEL_CODE = (
    "import os, sys\n"
    "mb = int(os.environ.get('LECTURE_LIB_KERNEL_MEMORY_MB', '0') or 0)\n"
    "if mb > 0:\n"
    "    try:\n"
    "        import resource\n"
    "        resource.setrlimit(resource.RLIMIT_AS, (mb * 2**20, mb * 2**20))\n"
    "    except (ImportError, ValueError, OSError):\n"
    "        pass\n"
    "from ipykernel import kernelapp\n"
    "kernelapp.launch_new_instance()\n"
)


@dataclass
class ProblemScore:
    problem: str
    points: float
    max_points: float
    status: str      # correct / wrong / unanswered / error / not reached
    message: str


@dataclass
class StudentReport:
    student: str
    files: list[Path]
    scores: dict[str, ProblemScore] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    sandboxed: bool = False

    @property
    def total(self) -> float:
        return sum(s.points for s in self.scores.values())

    @property
    def max_total(self) -> float:
        return sum(s.max_points for s in self.scores.values())


@dataclass
class Captured:
    """What came out of the kernel for one check() cell: a value, or why there is none."""
    kind: str          # "value", "undefined" (no such variable), "unreadable"
    value: object = None
    detail: str = ""


# --- finding submissions and what they must answer ------------------------------------------------
def _notebooks_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def find_submissions(paths) -> list[tuple[str, list[Path]]]:
    """[(student, [notebook paths])] following the rules in the module docstring."""
    found: list[tuple[str, list[Path]]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            found.append((path.stem, [path]))
        elif path.is_dir():
            for nb in sorted(path.glob("*.ipynb")):
                found.append((nb.stem, [nb]))
            for sub in sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")):
                nbs = _notebooks_under(sub)
                if nbs:
                    found.append((sub.name, nbs))
        else:
            raise FileNotFoundError(f"grade: PATH {raw} does not exist")
    seen: dict[str, int] = {}
    unique = []
    for student, files in found:
        n = seen[student] = seen.get(student, 0) + 1
        unique.append((student if n == 1 else f"{student}#{n}", files))
    return unique


def assignment_problems(solutions: Path) -> dict[str, list[str]]:
    """{notebook file name: [problem ids in order]} from the check() calls of solutions/*.ipynb."""
    out = {}
    for nb in sorted(Path(solutions).glob("*.ipynb")):
        ids = _ID_RE.findall(nb.read_text(encoding="utf-8"))
        out[nb.name] = list(dict.fromkeys(ids))
    return out


def _by_content(raw: bytes, assignments: dict) -> str | None:
    """The assignment whose problem ids this notebook checks most (None: none of them)."""
    ids = set(_ID_RE.findall(raw.decode("utf-8", "replace")))
    best = max(assignments, key=lambda a: len(ids & set(assignments[a])), default=None)
    return best if best is not None and ids & set(assignments[best]) else None


def _ids_in(path: Path) -> set[str]:
    """The problem ids a notebook's check() calls name."""
    try:
        return set(_ID_RE.findall(path.read_bytes().decode("utf-8", "replace")))
    except OSError:
        return set()


def _normal_name(name: str) -> str:
    name = Path(name).name
    return name if name.endswith(".ipynb") else name + ".ipynb"


# --- running one notebook -------------------------------------------------------------------------
MAX_OUTPUT_CHARS = 5_000_000   # outputs kept per notebook: a print flood cannot eat the grader's memory


def _capped_client_class():
    from nbclient import NotebookClient

    class CappedClient(NotebookClient):
        """Keeps at most MAX_OUTPUT_CHARS of output per notebook (errors are always kept)."""
        _kept = 0

        def output(self, outs, msg, display_id, cell_index):
            if msg.get("msg_type") != "error":
                self._kept += len(str(msg.get("content", "")))
                if self._kept > MAX_OUTPUT_CHARS:
                    return None
            return super().output(outs, msg, display_id, cell_index)

    return CappedClient


def capture_plan(nb) -> tuple[dict[int, list[tuple[str, str]]], set[int], set[str]]:
    """({cell index: [(problem id, variable)]} for the cells that call check("ID", variable),
    {indices of answer cells}, {answer variable names}). Answer cells: nbgrader solution cells, or the
    code cell just before a check cell."""
    plan: dict[int, list[tuple[str, str]]] = {}
    answer_cells, names = set(), set()
    prev_code = None
    for i, cell in enumerate(nb.cells):
        if cell.get("cell_type") != "code" or not isinstance(cell.get("source"), str):
            continue
        calls = [(m.group("pid"), m.group("expr")) for m in _CALL_RE.finditer(cell.source)]
        if calls:
            plan[i] = calls
            names.update(e for _, e in calls)
            own_answer = "answer" in cell.source.split("check(")[0]
            if prev_code is not None and not own_answer:
                answer_cells.add(prev_code)
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if isinstance(meta, dict) and meta.get("solution"):
            answer_cells.add(i)
        prev_code = i
    return plan, answer_cells, names


def _read_reply(reply) -> Captured:
    content = (reply or {}).get("content", {}) if isinstance(reply, dict) else {}
    ue = content.get("user_expressions", {}) if isinstance(content, dict) else {}
    res = ue.get("v") if isinstance(ue, dict) else None
    if not isinstance(res, dict):
        return Captured("unreadable", detail="no value came back from the kernel")
    if res.get("status") != "ok":
        if res.get("ename") == "NameError":
            return Captured("undefined", detail=str(res.get("evalue", ""))[:200])
        return Captured("unreadable", detail=f"reading the answer raised {str(res.get('ename'))[:60]}")
    text = (res.get("data") or {}).get("text/plain") if isinstance(res.get("data"), dict) else None
    if not isinstance(text, str) or len(text) > 2 * capture.MAX_TEXT + 16:
        return Captured("unreadable", detail="the answer came back in a form the grader does not read")
    try:
        payload = ast.literal_eval(text)          # a string literal, nothing else is accepted
        if not isinstance(payload, str):
            raise ValueError
        return Captured("value", capture.decode(payload))
    except capture.Unreadable as exc:
        return Captured("unreadable", detail=f"the answer is {exc}")
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return Captured("unreadable", detail="the answer came back in a form the grader does not read")


async def _execute(client, nb, plan, answer_cells, names, captures, start_kwargs):
    async with client.async_setup_kernel(**start_kwargs):
        kc = client.kc
        clear = "".join(f"globals().pop({n!r}, None)\n" for n in sorted(names))
        for index, cell in enumerate(nb.cells):
            if index in answer_cells and clear:
                msg_id = kc.execute(clear, silent=True, store_history=False, allow_stdin=False)
                await client.async_wait_for_reply(msg_id)
            await client.async_execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
            for pid, expr in plan.get(index, []):
                msg_id = kc.execute("", silent=True, store_history=False, allow_stdin=False,
                                    user_expressions={"v": _CAPTURE.format(expr)})
                reply = await client.async_wait_for_reply(msg_id)
                captures.setdefault(pid, []).append(_read_reply(reply))


def _kernel_env(work: Path, memory_mb: int) -> dict:
    pkg_parent = str(Path(__file__).resolve().parents[2])
    return {
        "HOME": str(work), "IPYTHONDIR": str(work / ".ipython"), "MPLCONFIGDIR": str(work / ".mpl"),
        "JUPYTER_RUNTIME_DIR": str(work / ".kernel"), "LECTURE_LIB_DATA_DIR": str(work / "data"),
        "LECTURE_LIB_KERNEL_MEMORY_MB": str(int(memory_mb)), "MPLBACKEND": "Agg",
        "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
        "PATH": os.environ.get("PATH", os.defpath), "LANG": "C.UTF-8", "TMPDIR": str(work / ".tmp"),
        "PYTHONPATH": os.pathsep.join(filter(None, [pkg_parent, os.environ.get("PYTHONPATH")])),
    }


def run_notebook(path: Path, timeout: float = DEFAULT_TIMEOUT_S, memory_mb: int = DEFAULT_MEMORY_MB,
                 sandbox: sandboxing.Sandbox | None = None, hide=()):
    """Execute a private copy of `path`. Returns ({problem id: [Captured, ...]}, notes, executed
    notebook or None). The submission itself is only read; every process the run starts is ended."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    sandbox = sandbox or sandboxing.choose("none")
    notes: list[str] = []
    captures: dict[str, list[Captured]] = {}
    with tempfile.TemporaryDirectory(prefix="lecture_lib_grade_") as tmp:
        work = Path(tmp).resolve() / "run"
        for sub in ("data", ".kernel", ".tmp"):
            (work / sub).mkdir(parents=True)
        copy = work / path.name
        shutil.copyfile(path, copy)
        try:
            nb = nbformat.reads(copy.read_text(encoding="utf-8"), as_version=4)
            if not isinstance(nb.get("cells"), list):
                raise ValueError("no list of cells")
        except Exception as exc:
            notes.append(f"{path.name}: not a valid notebook ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0][:120] if str(exc) else ''}); nothing could run")
            return captures, notes, None
        plan, answer_cells, names = capture_plan(nb)
        env = _kernel_env(work, memory_mb)
        argv = [sys.executable, "-c", _KERNEL_CODE, "-f", "{connection_file}", "--IPKernelApp.log_level=ERROR"]
        km = AsyncKernelManager()
        km.connection_file = str(work / ".kernel" / "kernel.json")
        if sandbox.kind == "bwrap":
            km.transport, km.ip = "ipc", str(work / ".kernel" / "k")     # no network inside
            keep = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent,
                    Path(__file__).resolve().parents[2] / "lecture_lib"]
            argv = sandboxing.bwrap_argv(sandbox, work, env, hide=hide, keep=keep) + argv
        km._kernel_spec = KernelSpec(argv=argv, display_name="lecture_lib grader", language="python", env={})
        deadline = time.monotonic() + timeout
        client = _capped_client_class()(
            nb, km=km, allow_errors=True, interrupt_on_timeout=False,
            timeout_func=lambda cell: max(1, int(deadline - time.monotonic() + 0.999)),
            startup_timeout=max(5, int(min(60, timeout))),
            resources={"metadata": {"path": str(work)}}, record_timing=False)
        before = sandboxing.descendants()
        pgid = None
        try:
            run_sync(_execute)(client, nb, plan, answer_cells, names, captures,   # the kernel's own
                               {"env": env, "cwd": str(work),                 # stdout/stderr: nowhere
                                "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL})
        except CellTimeoutError:
            notes.append(f"{path.name}: stopped at the time limit ({timeout:g} s); the kernel was "
                         "killed, answers captured before still count")
        except DeadKernelError:
            notes.append(f"{path.name}: the kernel died (os._exit, a kill, or the {memory_mb} MB "
                         "memory cap?); answers captured before still count")
        except Exception as exc:   # kernel failed to start, zmq trouble, a timeout while capturing
            if time.monotonic() >= deadline:
                notes.append(f"{path.name}: stopped at the time limit ({timeout:g} s); answers captured "
                             "before still count")
            else:
                first = str(exc).splitlines()[0][:160] if str(exc) else ""
                notes.append(f"{path.name}: could not run to the end ({type(exc).__name__}: {first})")
        finally:
            pgid = getattr(km.provisioner, "pgid", None) if km.provisioner else None
            with contextlib.suppress(Exception):
                run_sync(km.shutdown_kernel)(now=True)
            sandboxing.end_processes(before, pgid)
        return captures, notes, nb


# --- judging in the grader's own process ---------------------------------------------------------
@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raise TimeoutError in the block after `seconds` (main thread on POSIX; else no limit)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def _raise(signum, frame):
        raise TimeoutError("the check took too long")
    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def judge(problem, caps: list[Captured], givens: dict | None) -> ProblemScore:
    """Score one problem from the values captured after its check cells: the LAST one counts."""
    from .check import verdict
    maxp = problem.points
    if not caps:
        return ProblemScore(problem.id, 0, maxp, "not reached",
                            "not reached / not answered: its check cell never ran")
    last = caps[-1]
    if last.kind == "undefined":
        return ProblemScore(problem.id, 0, maxp, "unanswered",
                            f"{problem.id}: no answer: the answer variable was not defined when its "
                            "check cell ran (did the answer cell fail?)")
    if last.kind == "unreadable":
        return ProblemScore(problem.id, 0, maxp, "wrong", f"✗ {problem.id}: {last.detail}")
    try:
        with _time_limit(CHECK_SECONDS), variants.applied(problem.notebook, givens):
            status, msg = verdict(problem, last.value, tries=len(caps))
    except Exception as exc:
        status, msg = "error", f"{problem.id}: could not check this answer ({type(exc).__name__})"
    return ProblemScore(problem.id, maxp if status == "correct" else 0, maxp, status, msg)


def score(captures: dict, problem_ids: list[str], givens: dict | None = None) -> dict[str, ProblemScore]:
    """One ProblemScore per expected problem, judged here from the captured values.
    givens: {notebook 'NN': {given: value}} of this student's variant (None: the defaults)."""
    scores = {}
    for pid in problem_ids:
        try:
            problem = problem_bank.get(pid)
        except KeyError:
            scores[pid] = ProblemScore(pid, 0, 0, "error", f"{pid}: not in the problem bank")
            continue
        scores[pid] = judge(problem, captures.get(pid, []), (givens or {}).get(problem.notebook))
    return scores


def _suspicious(nb) -> list[str]:
    found = set()
    for cell in (nb.cells if nb is not None else []):
        if cell.get("cell_type") == "code" and isinstance(cell.get("source"), str):
            found.update(m.group(0).strip("(. ") for m in _SUSPICIOUS.finditer(cell.source))
    return sorted(found)


def grade(paths, timeout: float = DEFAULT_TIMEOUT_S, memory_mb: int = DEFAULT_MEMORY_MB,
          solutions: Path | None = None, assignment: str | None = None, log=None,
          sandbox: str = "auto", roster: list[str] | None = None, secret: str | None = None,
          hide=()) -> list[StudentReport]:
    """Grade every submission under `paths`; never raises for a bad submission.

    roster + secret: check each student against their own variant (`variants`).
    hide: extra folders the sandbox hides (the output folders, say)."""
    problem_bank.load_banks()
    box = sandboxing.choose(sandbox)
    solutions = Path(solutions) if solutions else default_root() / "solutions"
    assignments = assignment_problems(solutions)
    subs = find_submissions(paths)
    content, by_name = {}, {}
    for _, files in subs:
        for path in files:
            try:
                content[path] = _by_content(path.read_bytes(), assignments)
            except OSError:
                content[path] = None
            by_name[path] = path.name if path.name in assignments else None
    votes = Counter(by_name[p] or content[p] for p in content if by_name[p] or content[p])
    batch = votes.most_common(1)[0][0] if votes else (next(iter(assignments)) if len(assignments) == 1 else None)
    forced = _normal_name(assignment) if assignment else None
    hidden = [Path(p) for p in paths] + [solutions] + [Path(h) for h in hide]
    prev_reaper = sandboxing.set_subreaper(True)
    reports = []
    try:
        for student, files in subs:
            rep = StudentReport(student, files, sandboxed=box.kind == "bwrap")
            if box.note:
                rep.notes.append(box.note)
            givens = None
            if roster is not None:
                if student in roster:
                    givens = {nb[len("bank_"):]: variants.draw(secret, student, nb[len("bank_"):])
                              for nb in problem_bank.BANKS}
                else:
                    rep.notes.append(f"{student} is not on the roster: checked against the worksheet's "
                                     "default numbers")
            t0 = time.monotonic()
            for path in files:
                name = forced or by_name[path] or batch or content[path]
                expected = assignments.get(name, []) if name else []
                if not expected:
                    rep.notes.append(f"{path.name}: cannot tell which assignment this is "
                                     "(no matching solutions notebook); use --assignment")
                else:
                    own = _ids_in(path)
                    if own and not own & set(expected):
                        where = content[path] or "notebook " + ", ".join(sorted({i.split(".")[0] for i in own}))
                        rep.notes.append(f"{path.name}: WRONG ASSIGNMENT? its problems belong to "
                                         f"{where}, but it was graded as {name}"
                                         f"{'' if forced else ' (use --assignment to choose)'}")
                captures, notes, executed = run_notebook(path, timeout, memory_mb, box, hidden)
                rep.notes += notes
                flagged = _suspicious(executed)
                if flagged:
                    rep.notes.append(f"{path.name}: review by hand: its code uses {', '.join(flagged)}")
                for pid, s in score(captures, expected, givens).items():
                    if pid not in rep.scores or s.points > rep.scores[pid].points:
                        rep.scores[pid] = s
            rep.seconds = time.monotonic() - t0
            if log:
                print(f"graded {student}: {rep.total:g}/{rep.max_total:g} ({rep.seconds:.1f} s)", file=log)
            reports.append(rep)
    finally:
        sandboxing.set_subreaper(prev_reaper)
    return reports


# --- reports --------------------------------------------------------------------------------------
def problem_columns(reports) -> list[str]:
    cols: list[str] = []
    for rep in reports:
        for pid in rep.scores:
            if pid not in cols:
                cols.append(pid)
    return cols


_MARK = {"correct": "✓", "wrong": "✗", "unanswered": "·", "not reached": "·", "error": "!"}


def table(reports) -> str:
    """A plain-text table: one row per student, one mark per problem, score, notes."""
    cols = problem_columns(reports)
    width = max([len("student")] + [len(r.student) for r in reports])
    unboxed = [r.student for r in reports if not r.sandboxed]
    lines = [f"NOT SANDBOXED: {len(unboxed)} of {len(reports)} run(s) (see the notes)" if unboxed
             else f"sandboxed (bwrap): all {len(reports)} run(s)"]
    lines.append(f"{'student':<{width}}  {'score':>9}  problems  (✓ right, ✗ wrong, · not answered, ! error)")
    for r in reports:
        marks = "".join(_MARK.get(r.scores[c].status, "?") if c in r.scores else " " for c in cols)
        score_s = f"{r.total:g}/{r.max_total:g}"
        note = f"  [{'; '.join(r.notes)}]" if r.notes else ""
        lines.append(f"{r.student:<{width}}  {score_s:>9}  {marks}{note}")
    lines.append("")
    lines.append("problems, in column order (number of students right):")
    for i, c in enumerate(cols, 1):
        right = sum(1 for r in reports if c in r.scores and r.scores[c].status == "correct")
        lines.append(f"  {i:>2}. {c}  ({right}/{len(reports)})")
    return "\n".join(lines)


def write_csv(reports, path: Path) -> None:
    """One row per student: student, one column of points per problem, total, max, sandboxed
    (yes / NO), notes."""
    cols = problem_columns(reports)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student"] + cols + ["total", "max", "sandboxed", "notes"])
        for r in reports:
            w.writerow([r.student] + [f"{r.scores[c].points:g}" if c in r.scores else "" for c in cols]
                       + [f"{r.total:g}", f"{r.max_total:g}", "yes" if r.sandboxed else "NO",
                          "; ".join(r.notes)])


def feedback_text(rep: StudentReport) -> str:
    """A student's feedback (markdown). Messages never contain the expected values."""
    lines = [f"# Feedback for {rep.student}", "",
             f"Score: **{rep.total:g} / {rep.max_total:g}**", ""]
    if rep.notes:
        lines += ["Notes:", ""] + [f"- {n}" for n in rep.notes] + [""]
    lines += ["| problem | points | result | message |", "|---|---|---|---|"]
    for s in rep.scores.values():
        msg = s.message.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {s.problem} | {s.points:g}/{s.max_points:g} | {s.status} | {msg} |")
    return "\n".join(lines) + "\n"


def write_feedback(reports, folder: Path) -> None:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for r in reports:
        safe = re.sub(r"[^\w.\-#]+", "_", r.student)
        (folder / f"{safe}.md").write_text(feedback_text(r), encoding="utf-8")


def add_arguments(parser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="notebooks or folders of submissions")
    parser.add_argument("--csv", type=Path, help="write one row per student to this CSV file")
    parser.add_argument("--feedback", type=Path, metavar="DIR", help="write one feedback file per student")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S,
                        help=f"wall-time limit per notebook, seconds (default {DEFAULT_TIMEOUT_S})")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB,
                        help=f"kernel address-space cap in MB, 0 = none (default {DEFAULT_MEMORY_MB})")
    parser.add_argument("--solutions", type=Path, default=None,
                        help="solutions folder defining the assignments (default: the course's)")
    parser.add_argument("--assignment", default=None,
                        help="grade every notebook against this solutions notebook (file name)")
    parser.add_argument("--sandbox", choices=sandboxing.MODES, default="auto",
                        help="run each kernel under bubblewrap (bwrap), not at all (none), or bwrap "
                             "where it works (auto, the default); the report says when not sandboxed")
    parser.add_argument("--roster", type=Path, default=None,
                        help="roster CSV (column `student`): check each student against their own "
                             "variant, drawn from their id and the course secret")
    parser.add_argument("--secret-file", type=Path, default=None,
                        help="file whose first line is the course secret (for --roster)")
    parser.add_argument("--secret", default=None,
                        help=f"the course secret itself (visible in `ps`; prefer --secret-file or "
                             f"${variants.SECRET_ENV})")


def main(args) -> int:
    if args.timeout <= 0:
        print("grade: --timeout must be > 0 seconds", file=sys.stderr)
        return 2
    try:
        subs = find_submissions(args.paths)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    if not subs:
        print("grade: no notebooks found under " + " ".join(map(str, args.paths)), file=sys.stderr)
        return 2
    try:
        sandboxing.choose(args.sandbox)
        roster = secret = None
        if args.roster:
            roster = variants.read_roster(args.roster)
            secret = variants.read_secret(args.secret, args.secret_file)
    except (ValueError, OSError) as exc:
        print(f"grade: {exc}", file=sys.stderr)
        return 2
    hide = [p.parent for p in (args.csv,) if p] + [p for p in (args.feedback,) if p]
    hide += [p.parent for p in (args.roster, args.secret_file) if p]
    reports = grade(args.paths, timeout=args.timeout, memory_mb=args.memory_mb,
                    solutions=args.solutions, assignment=args.assignment, log=sys.stderr,
                    sandbox=args.sandbox, roster=roster, secret=secret, hide=hide)
    print(table(reports))
    if args.csv:
        write_csv(reports, args.csv)
        print(f"\nwrote {args.csv}")
    if args.feedback:
        write_feedback(reports, args.feedback)
        print(f"wrote feedback for {len(reports)} student(s) to {args.feedback}/")
    return 0
