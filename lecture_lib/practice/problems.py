"""The problem bank: one `Problem` per graded answer, registered by id ("01.weight_fetch_ms").

A problem never stores its answer as a typed number: `expected` is a function that asks the library
for the value when `check()` runs, so a corrected spec sheet or model card flows into every answer.

Bank modules are `lecture_lib/practice/bank_NN.py` (NN = the notebook number, "01", "02", ...),
listed in BANKS. Each one calls `register(Problem(...))` at import time; `load_banks()` imports the
modules named in BANKS. To add a bank, write bank_NN.py and add its name to BANKS.
Ids start with the notebook number and a dot: "02.balance_batch_dsv3".

Kinds of problem:
- "numeric":  `expected()` returns a float in `unit`; an answer is right when it is within `rtol`
              (relative tolerance) of it.
- "symbolic": `expected()` returns a SymPy expression; an answer is right when simplify(a - e) == 0.
              `symbols` maps names to SymPy symbols so that a string answer can be parsed.
- "choice":   `expected()` returns one letter ("a", "b", ...); `choices` maps letters to the options.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Callable

from .._registry import lookup

#: the problem banks, one module per notebook, imported by load_banks()
BANKS = ("bank_01", "bank_02", "bank_03", "bank_04", "bank_05", "bank_06", "bank_07", "bank_08")

KINDS = ("numeric", "symbolic", "choice")


@dataclass
class Slip:
    """A known wrong answer and what it tells the learner.

    `wrong` computes the wrong value (from the library, like `expected`), e.g. the same formula with
    total instead of active parameters. When an answer matches it (within the problem's rtol, or
    symbolically), `message` is shown. The message must not contain the expected value.
    """
    wrong: Callable[[], Any]
    message: str


@dataclass(frozen=True)
class Vary:
    """A given of a bank that may differ per student (see `lecture_lib.practice.variants`).

    name:   the attribute of the bank's GIVEN namespace ("batch").
    values: the values it may take, each equally likely (use `steps(lo, hi, step)` for a range);
            the bank's default value need not be among them.
    label:  what it is, with its unit, for the worksheet's "your numbers" cell.
    A bank lists its Vary()s in VARIES; every expected value keeps reading GIVEN, so a variant
    changes the numbers and never the formulas.
    """
    name: str
    values: tuple
    label: str

    def __post_init__(self):
        if not self.values:
            raise ValueError(f"Vary({self.name!r}): values must not be empty")


def steps(lo, hi, step) -> tuple:
    """lo, lo + step, ..., hi (inclusive), without floating-point drift."""
    n = int(round((hi - lo) / step))
    return tuple(type(lo)(round(lo + i * step, 12)) if isinstance(lo, float) else lo + i * step
                 for i in range(n + 1))


@dataclass
class Problem:
    """One graded problem.

    id:       "NN.short_name" (NN = notebook number); also the nbgrader grade_id of its check cell.
    expected: function returning the right answer, computed by lecture_lib at call time.
    kind:     "numeric", "symbolic" or "choice".
    points:   points for a right answer (0 for a wrong one; no partial credit).
    rtol:     relative tolerance for numeric answers (0.01 = within 1 %).
    unit:     the unit the answer must be given in ("ms", "$/Mtok", "tokens", "" for a pure number).
    hints:    shown one more per wrong attempt (the first after the first wrong answer).
    slips:    problem-specific known wrong answers (see `Slip`), tested before the generic ones.
    choices:  for kind "choice": {"a": "option text", ...}.
    symbols:  for kind "symbolic": names a string answer may use, {"B": sympy.Symbol(...), ...}.
    title:    a short human title for reports.
    """
    id: str
    expected: Callable[[], Any]
    kind: str = "numeric"
    points: int = 1
    rtol: float = 0.01
    unit: str = ""
    hints: list[str] = field(default_factory=list)
    slips: list[Slip] = field(default_factory=list)
    choices: dict[str, str] = field(default_factory=dict)
    symbols: dict[str, Any] = field(default_factory=dict)
    title: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Problem {self.id!r}: kind must be one of {KINDS}, got {self.kind!r}")
        if "." not in self.id or not self.id.split(".", 1)[0].isdigit():
            raise ValueError(f"Problem id must look like 'NN.name' (NN = notebook number), got {self.id!r}")
        if not (0 < self.rtol < 1):
            raise ValueError(f"Problem {self.id!r}: rtol must be in (0, 1), got {self.rtol!r}")
        if self.points < 0:
            raise ValueError(f"Problem {self.id!r}: points must be >= 0, got {self.points!r}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"Problem {self.id!r}: a choice problem needs `choices`")
        self.choices = {k.lower(): v for k, v in self.choices.items()}

    @property
    def notebook(self) -> str:
        """The notebook number this problem belongs to, e.g. '01'."""
        return self.id.split(".", 1)[0]


PROBLEMS: dict[str, Problem] = {}


def register(problem: Problem, *, replace: bool = False) -> Problem:
    """Add `problem` to the bank (ValueError if its id is taken, unless replace=True)."""
    if problem.id in PROBLEMS and not replace:
        raise ValueError(f"problem id {problem.id!r} is registered twice")
    PROBLEMS[problem.id] = problem
    return problem


def load_banks() -> dict[str, Problem]:
    """Import the bank modules named in BANKS (each registers its problems once) and return the bank."""
    for name in BANKS:
        import_module(f".{name}", __package__)
    return PROBLEMS


def get(problem_id: str) -> Problem:
    """The problem with this id (case- and punctuation-insensitive); KeyError naming close matches."""
    return lookup("problem", problem_id, load_banks())


def show_choices(problem_id: str) -> None:
    """Print the options of a multiple-choice problem (answer with the letter, as a string)."""
    p = get(problem_id)
    for letter, text in p.choices.items():
        print(f"  ({letter}) {text}")


def nbgrader_id(problem_id: str) -> str:
    """nbgrader grade ids allow only letters, digits, _ and -: '01.t_compute_ms' -> '01_t_compute_ms'."""
    return problem_id.replace(".", "_")
