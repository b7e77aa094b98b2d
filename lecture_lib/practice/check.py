"""check(problem_id, answer): grade one answer, explain common slips, never reveal the answer.

A right answer prints a one-line confirmation. Anything else raises an `AnswerError` (a subclass of
AssertionError, so a notebook cell with a wrong answer fails under `pytest --nbval-lax`):
`NotAnsweredError` for the `...` stub, `WrongAnswerError` for a wrong or malformed answer.

Every call leaves a machine-readable record:
- appended to `RESULTS` (a list in this process), and
- if the environment variable LECTURE_LIB_RESULTS names a file, appended to it as one JSON line
  {"problem", "status", "points", "max_points", "message"}; status is one of
  "correct", "wrong", "unanswered", "error". The grader reads that file.
"""
from __future__ import annotations

import json
import math
import numbers
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from .problems import Problem, get

RESULTS_ENV = "LECTURE_LIB_RESULTS"


class AnswerError(AssertionError):
    """A check did not pass (the message says why, without the expected value)."""

    def _render_traceback_(self):
        """What IPython/JupyterLab shows instead of a traceback: the message alone, in one box.

        The cell still fails (nbval, nbclient and the grader see the exception as usual); only the
        dozen lines of traceback through check.py, which say nothing to a learner, are left out.
        """
        return str(self).splitlines() or [type(self).__name__]


class NotAnsweredError(AnswerError):
    """The answer is still the `...` placeholder."""


class WrongAnswerError(AnswerError):
    """The answer is wrong, or not the kind of value the problem asks for."""


@dataclass
class Result:
    problem: str
    status: str          # "correct", "wrong", "unanswered" or "error"
    points: float
    max_points: float
    message: str


RESULTS: list[Result] = []
_attempts: dict[str, int] = {}

# --- hints: one more per wrong try, and every one seen so far in each message ---------------------
#: in a learner workspace (the kernel's folder is named my_work, see workspace.py) the tries are
#: kept in this file, so a rerun, a restarted kernel or `pytest --nbval-lax my_work/...` shows the
#: hints the same number of tries earned interactively. Elsewhere (tests, the grader) they are counted
#: in this process only.
TRIES_FILE = ".check_tries.json"


def hints_text(problem: Problem, tries: int) -> str:
    """The hints earned by `tries` wrong tries, all in one message ('' for no tries or no hints)."""
    shown = problem.hints[:max(0, min(tries, len(problem.hints)))]
    if len(shown) <= 1:
        return f"Hint: {shown[0]}" if shown else ""
    return "Hints: " + " ".join(f"({i}) {h}" for i, h in enumerate(shown, 1))


def _tries_path():
    from .workspace import WORKSPACE_DIR
    try:
        here = Path.cwd()
    except OSError:          # the folder was deleted under the kernel
        return None
    return here / TRIES_FILE if here.name == WORKSPACE_DIR else None


def _count_try(pid: str) -> int:
    """One more wrong try of problem `pid`; returns the count (kept on disk in a workspace)."""
    path = _tries_path()
    saved = {}
    if path is not None:
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
            saved = saved if isinstance(saved, dict) else {}
        except (OSError, ValueError):
            saved = {}
    old = saved.get(pid, 0)
    n = _attempts[pid] = max(_attempts.get(pid, 0), old if isinstance(old, int) else 0) + 1
    if path is not None:
        try:   # best effort: a read-only workspace only loses the count, never the check
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({**saved, pid: n}, sort_keys=True), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass
    return n


def _record(result: Result) -> None:
    RESULTS.append(result)
    path = os.environ.get(RESULTS_ENV)
    if path:
        # one short append per record, closed at once: survives a kernel that dies later
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(result), ensure_ascii=False) + "\n")


# --- slips: known factors between a wrong answer and the right one --------------------------------
_PREFIX_EXP = {"p": -12, "n": -9, "µ": -6, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12,
               "P": 15}
_EXP_PREFIX = {-12: "p", -9: "n", -6: "µ", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P"}
_BASE_UNITS = ("s", "B", "B/s", "FLOP", "FLOP/s", "B/token", "tok/s", "tok", "W", "Hz")


def _split_unit(unit: str):
    """'ms' -> ('m', 's'); 'TB/s' -> ('T', 'B/s'); None when the unit has no SI prefix ladder."""
    for base in sorted(_BASE_UNITS, key=len, reverse=True):
        if unit.endswith(base):
            pre = unit[: -len(base)]
            if pre in _PREFIX_EXP:
                return pre, base
    return None


def _prefix_message(factor_exp: int, unit: str) -> str:
    """Message for an answer 10**factor_exp times the right one (factor_exp = ±3, ±6, ±9)."""
    size = f"{10 ** abs(factor_exp):,}× too {'large' if factor_exp > 0 else 'small'}"
    split = _split_unit(unit)
    if split:
        pre, base = split
        # too large by 1000 = the answer was given in a unit 1000 times smaller
        used = _EXP_PREFIX.get(_PREFIX_EXP[pre] - factor_exp)
        if used is not None:
            return (f"Your answer is {size}: did you give it in {used}{base} where the question "
                    f"asks for {unit}?")
    return (f"Your answer is {size}: a unit-prefix slip? Check k/M/G/T and m/µ/n on every input"
            f"{' and the unit asked for (' + unit + ')' if unit else ''}.")


#: units of pure numbers (ratios, counts of "times"): no bits or bytes in them to mix up
_UNITLESS = ("", "×", "x", "%", "ratio")


def _generic_slips(unit: str | None):
    """(factor, message) pairs: answer == factor × expected.

    unit None: not known (a symbolic answer): every slip applies. A unitless ratio (see _UNITLESS)
    gets no bits-vs-bytes message: a factor 8 there says nothing about bits.
    """
    out = []
    bytes_can_slip = unit is None or unit.strip() not in _UNITLESS
    unit = unit or ""
    for e in (3, 6, 9, 12):
        out.append((10.0 ** e, _prefix_message(e, unit)))
        out.append((10.0 ** -e, _prefix_message(-e, unit)))
    out += [
        (2.0, "Your answer is 2× too large: FLOPs vs multiply-adds (this course counts 2 FLOPs per "
              "multiply-add)? Or 2 bytes per value where the question uses 1 (bf16 vs fp8)?"),
        (0.5, "Your answer is 2× too small: FLOPs vs multiply-adds (this course counts 2 FLOPs per "
              "multiply-add)? Or 1 byte per value where the question uses 2 (fp8 vs bf16)?"),
    ]
    if bytes_can_slip:
        out += [(8.0, "Your answer is 8× too large: bits vs bytes? (1 byte = 8 bits)"),
                (1 / 8, "Your answer is 8× too small: bits vs bytes? (1 byte = 8 bits)")]
    for k in (1, 2, 3, 4):
        names = {1: "KiB vs kB", 2: "MiB vs MB", 3: "GiB vs GB", 4: "TiB vs TB"}[k]
        msg = (f"Close, but off by a factor 1.024^{k}: {names}? This course uses decimal units "
               f"(1 GB = 10^9 bytes); binary ones (1 GiB = 2^30 bytes) only where stated.")
        out.append((1.024 ** k, msg))
        out.append((1.024 ** -k, msg))
    out.append((-1.0, "Your answer has the wrong sign."))
    return out


def _close(a: float, b: float, rtol: float) -> bool:
    return abs(a - b) <= rtol * abs(b) + 1e-300


# --- turning an answer into a number / expression / letter ----------------------------------------
_TYPE_NAMES = {"NoneType": "None", "int": "an int (a whole number)", "float": "a float",
               "str": "a string", "bool": "a boolean", "list": "a list", "tuple": "a tuple",
               "set": "a set", "dict": "a dict", "ndarray": "a NumPy ndarray", "complex": "a complex number"}


def _describe(answer) -> str:
    """'an int (a whole number)', 'a dict', 'None', 'an Equality': a type name with the right article."""
    name = type(answer).__name__
    if name in _TYPE_NAMES:
        return _TYPE_NAMES[name]
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _count(n, what: str) -> str:
    """'1 value', '3 values'; n may be the word 'several'."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def _too_large(unit: str) -> WrongAnswerError:
    return WrongAnswerError("Your answer is too large to be a float (beyond about 1.8 × 10^308): "
                            f"an exponent typed wrong (10**400 for 1e40?) or a runaway power? Give a "
                            f"number{unit}.")


def _as_number(answer, problem: Problem) -> float:
    """Return a float or raise WrongAnswerError with a friendly message."""
    unit = f" in {problem.unit}" if problem.unit else ""
    if answer is None:
        raise WrongAnswerError("Your answer is None. Did you assign the result of print(...) or of a "
                               "function without `return`? Give a number" + unit + ".")
    if isinstance(answer, bool):
        raise WrongAnswerError(f"Your answer is {answer}, a boolean; give a number{unit}.")
    if isinstance(answer, str):
        raise WrongAnswerError(f"Your answer is a string ({answer!r}); give a plain number{unit}, "
                               f"without quotes or unit, e.g. answer = 12.5.")
    if isinstance(answer, (list, tuple, set, dict)) or (hasattr(answer, "shape") and
                                                        getattr(answer, "shape", ()) != ()):
        n = len(answer) if hasattr(answer, "__len__") else "several"
        what = _count(n, "entry" if isinstance(answer, dict) else "value").replace("entrys", "entries")
        raise WrongAnswerError(f"Your answer is {_describe(answer)} with {what}; give one "
                               f"number{unit} (e.g. pick the element you mean, or use float(...)).")
    if isinstance(answer, complex):
        raise WrongAnswerError(f"Your answer is a complex number; give a real number{unit}.")
    try:
        import sympy
        if isinstance(answer, sympy.Basic):
            if not answer.is_number:
                raise WrongAnswerError("Your answer is a symbolic expression with free symbols; this "
                                       f"problem asks for a number{unit}. Substitute the values "
                                       "(.subs(...)) and use float(...).")
            if answer.has(sympy.nan):
                raise WrongAnswerError("Your answer is NaN (not a number): something upstream "
                                       "divided 0 by 0 or used a missing value.")
            if answer.is_infinite or answer.has(sympy.zoo):
                raise WrongAnswerError("Your answer is infinite: a division by zero somewhere?")
            answer = complex(answer)
            if math.isinf(answer.real) and answer.imag == 0:
                raise _too_large(unit)
            if answer.imag != 0:
                raise WrongAnswerError(f"Your answer is a complex number; give a real number{unit}.")
            answer = answer.real
    except ImportError:  # pragma: no cover
        pass
    if not isinstance(answer, numbers.Real):
        try:
            answer = float(answer)   # numpy scalars, 0-d arrays, Decimal, Fraction
        except OverflowError:
            raise _too_large(unit) from None
        except (TypeError, ValueError):
            raise WrongAnswerError(f"Your answer is {_describe(answer)}; give a number{unit}.") from None
    try:
        x = float(answer)
    except OverflowError:    # an int such as 10**400
        raise _too_large(unit) from None
    if math.isnan(x):
        raise WrongAnswerError("Your answer is NaN (not a number): something upstream divided 0 by 0 "
                               "or used a missing value.")
    if math.isinf(x):
        raise WrongAnswerError("Your answer is infinite: a division by zero somewhere?")
    return x


def _check_numeric(problem: Problem, answer):
    x = _as_number(answer, problem)
    e = float(problem.expected())
    if _close(x, e, problem.rtol):
        return True, ""
    for slip in problem.slips:
        w = float(slip.wrong())
        if _close(x, w, problem.rtol) and not _close(w, e, problem.rtol):
            return False, slip.message
    if e != 0:
        for factor, msg in _generic_slips(problem.unit):
            if _close(x, factor * e, problem.rtol):
                return False, msg
    return False, f"Not right: not within ±{problem.rtol:.3g} (relative) of the expected value."


def _to_expr(answer, problem: Problem):
    import sympy
    if isinstance(answer, str):
        try:
            answer = sympy.sympify(answer, locals=dict(problem.symbols))
        except (sympy.SympifyError, SyntaxError, TypeError) as exc:
            raise WrongAnswerError(f"Could not read your answer {answer!r} as a SymPy expression "
                                   f"({type(exc).__name__}). Write it like 'F / (2 * W)' using the "
                                   f"symbols {sorted(problem.symbols) or 'of the problem'}.") from None
    if answer is None:
        raise WrongAnswerError("Your answer is None; give a SymPy expression.")
    if isinstance(answer, (list, tuple, set)):
        raise WrongAnswerError(f"Your answer is {_describe(answer)} of {_count(len(answer), 'item')}; "
                               "sympy.solve returns a list: take the solution you mean, e.g. "
                               "solve(eq, B)[0].")
    if isinstance(answer, dict):
        raise WrongAnswerError("Your answer is a dict (sympy.solve(..., dict=True)?); give the "
                               "expression itself.")
    if isinstance(answer, sympy.Equality):
        raise WrongAnswerError("Your answer is an equation (Eq); give the expression for the "
                               "unknown, e.g. solve(eq, B)[0].")
    if isinstance(answer, bool) or not isinstance(answer, (sympy.Basic, numbers.Number)):
        raise WrongAnswerError(f"Your answer is {_describe(answer)}; give a SymPy expression.")
    return sympy.sympify(answer)


def _check_symbolic(problem: Problem, answer):
    import sympy
    a = _to_expr(answer, problem)
    e = sympy.sympify(problem.expected())
    # match symbols by name, so a learner's own sympy.symbols("B") counts as the course's B
    by_name = {s.name: s for s in e.free_symbols}
    by_name.update({k: v for k, v in problem.symbols.items() if isinstance(v, sympy.Symbol)})
    a = a.xreplace({s: by_name[s.name] for s in a.free_symbols if s.name in by_name})
    if sympy.simplify(a - e) == 0:
        return True, ""
    for slip in problem.slips:
        w = sympy.sympify(slip.wrong())
        if sympy.simplify(a - w) == 0:
            return False, slip.message
    ratio = sympy.simplify(a / e) if e != 0 else None
    if ratio is not None and ratio.is_number and ratio.is_real:
        r = float(ratio)
        for factor, msg in _generic_slips(None):
            if _close(r, factor, 1e-9):
                return False, msg
    extra = sorted(s.name for s in a.free_symbols - e.free_symbols)
    if extra:
        return False, (f"Not equivalent to the expected expression; yours uses {', '.join(extra)}, "
                       "which the answer does not need.")
    return False, "Not equivalent to the expected expression (checked with simplify(yours - expected) == 0)."


def _check_choice(problem: Problem, answer):
    letters = ", ".join(sorted(problem.choices))
    if not isinstance(answer, str):
        raise WrongAnswerError(f"Your answer is {_describe(answer)}; give one letter as a string, "
                               f"one of {letters} (e.g. answer = \"b\").")
    key = answer.strip().strip("()").rstrip(").").strip().lower()
    if key not in problem.choices:
        raise WrongAnswerError(f"{answer!r} is not one of the options; give one letter: {letters}.")
    if key == str(problem.expected()).strip().lower():
        return True, ""
    return False, "Not the right option."


_CHECKERS = {"numeric": _check_numeric, "symbolic": _check_symbolic, "choice": _check_choice}


def verdict(problem: Problem, answer, tries: int = 1) -> tuple[str, str]:
    """(status, message) for `answer`, judged as check() judges it, but pure: nothing is recorded,
    printed, counted or raised. The grader's own re-check (status: correct / wrong / unanswered /
    error); `tries` = wrong tries seen, for the hints shown."""
    pid = problem.id
    if answer is Ellipsis:
        return "unanswered", f"{pid}: not answered yet: the answer is still `...`."
    try:
        ok, why = _CHECKERS[problem.kind](problem, answer)
    except AnswerError as exc:
        return "wrong", f"✗ {pid}: {exc}"
    except Exception as exc:
        return "error", f"{pid}: could not check this answer ({type(exc).__name__})."
    if ok:
        return "correct", f"✓ {pid}: correct."
    hint = hints_text(problem, tries) if problem.hints else ""
    return "wrong", f"✗ {pid}: {why}" + (f" {hint}" if hint else "")


def check(problem_id: str, answer) -> None:
    """Check `answer` to problem `problem_id` (e.g. "01.weight_fetch_ms").

    Prints a confirmation when right; raises NotAnsweredError for `...`, WrongAnswerError when wrong.
    The expected value is computed by lecture_lib now and is never shown.
    """
    try:
        problem = get(problem_id)
    except (KeyError, TypeError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        _record(Result(str(problem_id), "error", 0, 0, msg))
        raise
    pid, maxp = problem.id, problem.points
    if answer is Ellipsis:
        unit = f" in {problem.unit}" if problem.unit and problem.kind == "numeric" else ""
        msg = f"{pid}: not answered yet: replace the ... with your answer{unit}."
        _record(Result(pid, "unanswered", 0, maxp, msg))
        raise NotAnsweredError(msg)
    malformed = False
    try:
        ok, why = _CHECKERS[problem.kind](problem, answer)
    except AnswerError as exc:   # not the kind of value asked for: say so, no hint spent
        ok, why, malformed = False, str(exc), True
    except Exception as exc:   # a bug computing the expected value, not the learner's fault
        msg = (f"{pid}: could not check this answer: internal error {type(exc).__name__}: {exc} "
               "(please report it).")
        _record(Result(pid, "error", 0, maxp, msg))
        raise WrongAnswerError(msg) from None
    if ok:
        msg = f"✓ {pid}: correct ({maxp}/{maxp} point{'s' if maxp != 1 else ''})."
        _record(Result(pid, "correct", maxp, maxp, msg))
        print(msg)
        return None
    if problem.hints and not malformed:
        why += " " + hints_text(problem, _count_try(pid))
    msg = f"✗ {pid}: {why}"
    _record(Result(pid, "wrong", 0, maxp, msg))
    raise WrongAnswerError(msg)
