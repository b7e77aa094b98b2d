"""Grade submitted notebooks:  python -m lecture_lib grade PATH... [--csv FILE] [--feedback DIR]
                                                          [--timeout SECONDS] [--memory-mb MB]

Who is the student:
- PATH is a notebook                   -> the student is the file name without .ipynb;
- PATH is a folder, notebooks in it    -> one student per notebook (file stem);
- PATH is a folder of folders          -> one student per sub-folder (its name), all notebooks
                                          found under it count for that student (nbgrader's
                                          `submitted/<student>/<assignment>/` layout works as is).

Which problems a notebook must answer: the check() calls of the solutions notebook with the same
file name (solutions/01_roofline_and_batching.ipynb); for a renamed file, the solutions notebook
whose problem ids appear most in it; `--assignment NAME` forces one.

How a notebook runs: it is copied to a temporary folder (the submission itself is only ever read)
and executed top to bottom in a fresh Python kernel of this interpreter, with errors allowed, so
every check() is scored on its own. Each check() appends its result to the file named by
LECTURE_LIB_RESULTS, which the grader reads afterwards. Limits per notebook:
- wall time `--timeout` seconds (default 120), kernel start included; when it runs out the kernel is
  killed and the checks that already ran still count;
- memory: the kernel's address space is capped with RLIMIT_AS at `--memory-mb` MB (default 4096,
  env LECTURE_LIB_GRADE_MEMORY_MB; 0 = no cap; Linux only, macOS/Windows do not enforce it).
- output: at most MAX_OUTPUT_CHARS (5 million characters) of cell output are kept per notebook.
A problem whose check never ran scores 0, "not reached / not answered". A notebook that is not valid
JSON, raises, loops, exits or kills its kernel is reported and scored; the batch goes on.

This is a grader for honest classes, not a sandbox: the submission runs as your user.
"""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import problems as problem_bank
from .assign import default_root
from .check import RESULTS_ENV

DEFAULT_TIMEOUT_S = 120
DEFAULT_MEMORY_MB = int(os.environ.get("LECTURE_LIB_GRADE_MEMORY_MB", "4096"))
_ID_RE = re.compile(r"""check\(\s*\\?["'](\d\d\.[\w.\-]+)\\?["']""")
_STATUS_RANK = {"correct": 3, "wrong": 2, "unanswered": 1, "error": 0}

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

    @property
    def total(self) -> float:
        return sum(s.points for s in self.scores.values())

    @property
    def max_total(self) -> float:
        return sum(s.max_points for s in self.scores.values())


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


def _pick_assignment(path: Path, raw: bytes, assignments: dict, forced: str | None):
    if forced:
        name = Path(forced).name
        if not name.endswith(".ipynb"):
            name += ".ipynb"
        return name
    if path.name in assignments:
        return path.name
    ids = set(_ID_RE.findall(raw.decode("utf-8", "replace")))
    best = max(assignments, key=lambda a: len(ids & set(assignments[a])), default=None)
    if best is not None and ids & set(assignments[best]):
        return best
    return None


# --- running one notebook -------------------------------------------------------------------------
def _kernel_manager(env: dict):
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import AsyncKernelManager
    km = AsyncKernelManager()
    km._kernel_spec = KernelSpec(argv=[sys.executable, "-c", _KERNEL_CODE, "-f", "{connection_file}",
                                       "--IPKernelApp.log_level=ERROR"],
                                 display_name="lecture_lib grader", language="python", env=env)
    return km


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


def _make_sure_dead(km) -> None:
    """Kill the kernel process if nbclient's own clean-up left it running."""
    proc = getattr(getattr(km, "provisioner", None), "process", None)
    if proc is not None and proc.poll() is None:
        try:
            proc.kill()
            proc.wait(5)
        except Exception:
            pass


def run_notebook(path: Path, timeout: float = DEFAULT_TIMEOUT_S, memory_mb: int = DEFAULT_MEMORY_MB):
    """Execute a temporary copy of `path`. Returns (result records, notes, executed notebook or None).

    The submission file itself is only read. Records are the JSON lines written by check().
    """
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="lecture_lib_grade_") as tmp:
        tmp = Path(tmp)
        copy = tmp / path.name
        shutil.copyfile(path, copy)
        try:
            nb = nbformat.reads(copy.read_text(encoding="utf-8"), as_version=4)
            if not isinstance(nb.get("cells"), list):
                raise ValueError("no list of cells")
        except Exception as exc:
            notes.append(f"{path.name}: not a valid notebook ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0][:120] if str(exc) else ''}); nothing could run")
            return [], notes, None
        results = tmp / "results.jsonl"
        (tmp / "data").mkdir()
        pkg_parent = str(Path(__file__).resolve().parents[2])
        env = {
            RESULTS_ENV: str(results),
            "LECTURE_LIB_DATA_DIR": str(tmp / "data"),
            "LECTURE_LIB_KERNEL_MEMORY_MB": str(int(memory_mb)),
            "MPLBACKEND": "Agg",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "PYTHONPATH": os.pathsep.join(filter(None, [pkg_parent, os.environ.get("PYTHONPATH")])),
        }
        deadline = time.monotonic() + timeout
        client = _capped_client_class()(
            nb, km=_kernel_manager(env), allow_errors=True, interrupt_on_timeout=False,
            timeout_func=lambda cell: max(1, int(deadline - time.monotonic() + 0.999)),
            startup_timeout=max(5, int(min(60, timeout))),
            resources={"metadata": {"path": str(tmp)}}, record_timing=False,
            shutdown_kernel="immediate")
        try:
            client.execute()
        except CellTimeoutError:
            notes.append(f"{path.name}: stopped at the time limit ({timeout:g} s); the kernel was "
                         "killed, checks that ran before still count")
        except DeadKernelError:
            notes.append(f"{path.name}: the kernel died (os._exit, a kill, or the {memory_mb} MB "
                         "memory cap?); checks that ran before still count")
        except Exception as exc:   # kernel failed to start, zmq trouble, ...
            first = str(exc).splitlines()[0][:160] if str(exc) else ""
            notes.append(f"{path.name}: could not run to the end ({type(exc).__name__}: {first})")
        finally:
            _make_sure_dead(client.km)
        records = []
        if results.exists():
            for line in results.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    rec = json.loads(line)
                    if isinstance(rec, dict) and "problem" in rec and "status" in rec:
                        records.append(rec)
                except json.JSONDecodeError:
                    pass
        return records, notes, nb


def score(records: list[dict], problem_ids: list[str]) -> dict[str, ProblemScore]:
    """One ProblemScore per expected problem: its best check() result, or 'not reached'."""
    scores = {}
    for pid in problem_ids:
        try:
            maxp = problem_bank.get(pid).points
        except KeyError:
            maxp = 0
        mine = [r for r in records if r.get("problem") == pid]
        if not mine:
            scores[pid] = ProblemScore(pid, 0, maxp, "not reached",
                                       "not reached / not answered: its check() never ran")
            continue
        best = max(mine, key=lambda r: _STATUS_RANK.get(r.get("status"), -1))
        status = str(best.get("status"))
        pts = maxp if status == "correct" else 0
        scores[pid] = ProblemScore(pid, pts, maxp, status, str(best.get("message", "")))
    return scores


def grade(paths, timeout: float = DEFAULT_TIMEOUT_S, memory_mb: int = DEFAULT_MEMORY_MB,
          solutions: Path | None = None, assignment: str | None = None, log=None) -> list[StudentReport]:
    """Grade every submission under `paths`; never raises for a bad submission."""
    problem_bank.load_banks()
    solutions = Path(solutions) if solutions else default_root() / "solutions"
    assignments = assignment_problems(solutions)
    subs = find_submissions(paths)
    chosen = {}
    for _, files in subs:
        for path in files:
            chosen[path] = _pick_assignment(path, path.read_bytes(), assignments, assignment)
    known = [a for a in chosen.values() if a]
    if known:                       # unreadable or renamed-beyond-recognition: the batch's usual one
        fallback = max(set(known), key=known.count)
    else:
        fallback = next(iter(assignments)) if len(assignments) == 1 else None
    reports = []
    for student, files in subs:
        rep = StudentReport(student, files)
        t0 = time.monotonic()
        for path in files:
            name = chosen[path] or fallback
            expected = assignments.get(name, []) if name else []
            if not expected:
                rep.notes.append(f"{path.name}: cannot tell which assignment this is "
                                 "(no matching solutions notebook); use --assignment")
            records, notes, _ = run_notebook(path, timeout, memory_mb)
            rep.notes += notes
            for pid, s in score(records, expected).items():
                if pid not in rep.scores or s.points > rep.scores[pid].points:
                    rep.scores[pid] = s
        rep.seconds = time.monotonic() - t0
        if log:
            print(f"graded {student}: {rep.total:g}/{rep.max_total:g} ({rep.seconds:.1f} s)", file=log)
        reports.append(rep)
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
    lines = [f"{'student':<{width}}  {'score':>9}  problems  (✓ right, ✗ wrong, · not answered, ! error)"]
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
    """One row per student: student, one column of points per problem, total, max, notes."""
    cols = problem_columns(reports)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student"] + cols + ["total", "max", "notes"])
        for r in reports:
            w.writerow([r.student] + [f"{r.scores[c].points:g}" if c in r.scores else "" for c in cols]
                       + [f"{r.total:g}", f"{r.max_total:g}", "; ".join(r.notes)])


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
    reports = grade(args.paths, timeout=args.timeout, memory_mb=args.memory_mb,
                    solutions=args.solutions, assignment=args.assignment, log=sys.stderr)
    print(table(reports))
    if args.csv:
        write_csv(reports, args.csv)
        print(f"\nwrote {args.csv}")
    if args.feedback:
        write_feedback(reports, args.feedback)
        print(f"wrote feedback for {len(reports)} student(s) to {args.feedback}/")
    return 0
