"""Per-student variants: each student's own given numbers, drawn from their id and a course secret.

A bank (`bank_NN.py`) declares which of its GIVEN numbers may vary, and over which values:

    VARIES = (Vary("batch", steps(1024, 4096, 128), "batch B, sequences"), ...)

A student's variant is one value per Vary, drawn deterministically: the value's index is
HMAC-SHA256(key=secret, msg="<student>|<NN>|<name>") read as an integer, modulo the number of values.
The same (secret, student) always gives the same numbers; without the secret nobody can tell which
numbers another student got. Expected values stay computed by the library: `applied(NN, givens)` sets
the bank's GIVEN to the student's numbers for the duration of a check, then puts the defaults back.

Instructor:  python -m lecture_lib assign --roster roster.csv --secret-file course.key --out worksheets/
             python -m lecture_lib grade submitted/ --roster roster.csv --secret-file course.key
The worksheet carries the student's numbers in a cell of its own (`use_givens("01", {...})`), so a
learner's own check() uses them; the grader recomputes them from the roster and the secret and never
reads them from the submitted notebook.
"""
from __future__ import annotations

import contextlib
import csv
import hashlib
import hmac
from importlib import import_module
from pathlib import Path

from .problems import BANKS, Vary

SECRET_ENV = "LECTURE_LIB_COURSE_SECRET"


def bank_module(notebook: str):
    """The bank module of notebook 'NN' (KeyError when there is none)."""
    name = f"bank_{notebook}"
    if name not in BANKS:
        raise KeyError(f"no problem bank for notebook {notebook!r} (banks: {', '.join(BANKS)})")
    return import_module(f".{name}", __package__)


def declared(notebook: str) -> tuple[Vary, ...]:
    """The Vary declarations of notebook NN's bank (empty: everybody gets the same numbers)."""
    return tuple(getattr(bank_module(notebook), "VARIES", ()))


def _index(secret: str, student: str, notebook: str, name: str, n: int) -> int:
    digest = hmac.new(secret.encode("utf-8"), f"{student}|{notebook}|{name}".encode("utf-8"),
                      hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % n


def draw(secret: str, student: str, notebook: str) -> dict:
    """{given name: value} of this student's variant of notebook NN ({} if nothing varies)."""
    if not secret:
        raise ValueError("variants need a course secret (--secret-file FILE or $" + SECRET_ENV + ")")
    return {v.name: v.values[_index(secret, str(student), notebook, v.name, len(v.values))]
            for v in declared(notebook)}


def _validate(notebook: str, values: dict) -> dict:
    known = {v.name: v for v in declared(notebook)}
    for name, value in values.items():
        if name not in known:
            raise ValueError(f"notebook {notebook}: {name!r} is not a given that varies "
                             f"(those are: {', '.join(known) or 'none'})")
        if value not in known[name].values:
            raise ValueError(f"notebook {notebook}: {name} = {value!r} is not one of its allowed values")
    return values


@contextlib.contextmanager
def applied(notebook: str, values: dict | None):
    """Within the block, bank NN's GIVEN holds `values` (the defaults are restored after)."""
    if not values:
        yield
        return
    given = bank_module(notebook).GIVEN
    _validate(notebook, values)
    saved = {name: getattr(given, name) for name in values}
    try:
        for name, value in values.items():
            setattr(given, name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(given, name, value)


def use_givens(notebook: str, values: dict, student: str = "") -> None:
    """In a learner's kernel: make bank NN's GIVEN this student's numbers (for the whole session),
    so that the worksheet prints them and check() judges against them. Prints the numbers."""
    given = bank_module(notebook).GIVEN
    _validate(notebook, values)
    labels = {v.name: v.label for v in declared(notebook)}
    print(f"Your own numbers{f' ({student})' if student else ''}; they replace the worksheet's "
          "defaults wherever the text below mentions them:")
    for name, value in values.items():
        default = getattr(given, name)
        setattr(given, name, value)
        print(f"  {labels.get(name, name)}: {value:,}   (the text's default: {default:,})"
              if isinstance(value, (int, float)) else f"  {labels.get(name, name)}: {value}   "
              f"(the text's default: {default})")


def variant_cell_source(notebook: str, student: str, values: dict) -> str:
    """The code cell `assign --roster` puts before a worksheet's first code cell."""
    return ("# Your own numbers: the checks below use them (the instructor's grader knows them too).\n"
            "from lecture_lib.practice.variants import use_givens\n"
            f"use_givens({notebook!r}, {values!r}, student={student!r})")


def read_roster(path: Path) -> list[str]:
    """Student ids from a roster CSV: the column `student` (or `id`), else the first column."""
    path = Path(path)
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"roster {path} is empty")
    header = [h.strip().lower() for h in rows[0]]
    col = next((header.index(k) for k in ("student", "id", "student_id") if k in header), None)
    body = rows[1:] if col is not None else rows
    col = col or 0
    ids = [r[col].strip() for r in body if len(r) > col and r[col].strip()]
    dup = sorted({s for s in ids if ids.count(s) > 1})
    if dup:
        raise ValueError(f"roster {path}: duplicate student ids {dup}")
    if not ids:
        raise ValueError(f"roster {path}: no student ids")
    return ids


def read_secret(secret: str | None = None, secret_file: Path | None = None) -> str:
    """The course secret: --secret-file FILE (first line), else --secret, else $LECTURE_LIB_COURSE_SECRET."""
    import os
    if secret_file:
        text = Path(secret_file).read_text(encoding="utf-8").strip().splitlines()
        secret = text[0].strip() if text else ""
    secret = secret or os.environ.get(SECRET_ENV, "")
    if not secret:
        raise ValueError("variants need a course secret: --secret-file FILE, --secret TEXT or $" + SECRET_ENV)
    return secret
