"""Shared pieces of the registries: sources with dates, loading and checking the data files, name lookup.

The figures live in TOML files under `lecture_lib/data/`, one labelled row per chip, model or price.
`load_file` reads one such file and checks every row against a schema (a dict of field name -> Field)
before any object is built; a bad row raises RegistryError naming the file, the row and the field.
"""
from __future__ import annotations

import difflib
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .units import GB, GiB, KB, KiB, MB, MiB, PB, TB, TiB, canonical_dtype

#: the folder holding the shipped data files (found the same way from a checkout or an installed package)
DATA = Path(__file__).resolve().parent / "data"

QUALITY = ("P", "S", "R", "U")
_DATE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$")


@dataclass(frozen=True)
class Source:
    """Where a figure comes from.

    url: the page or document the figure was read from (cite the primary source where known).
    as_of: the date (YYYY-MM or YYYY-MM-DD) the figure was checked against that source.
    quality: 'P' primary source read directly, 'S' secondary source reproducing a primary one,
             'R' recalled and cross-checked only by arithmetic, 'U' uncertain / announced / conflicting.
    note: anything a reader should know (e.g. 'sparse figure halved').
    """
    url: str
    as_of: str
    quality: str = "S"
    note: str = ""


def spread_sources(source, figures) -> dict:
    """{figure: Source} from one Source (it covers every figure), a dict per figure, or None."""
    if source is None:
        return {}
    if isinstance(source, Source):
        return {f: source for f in figures}
    return dict(source)


# --- loading the data files -----------------------------------------------------------------------

class RegistryError(ValueError):
    """A data file is malformed; the message names the file, the row and the field."""

    def __init__(self, path, row: str | None, field: str | None, problem: str):
        self.path, self.row, self.field = str(path), row, field
        where = [self.path]
        if row is not None:
            where.append(f"row {row}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {problem}")


@dataclass(frozen=True)
class Field:
    """One labelled field of a data-file row.

    kind: 'text'      a non-empty string
          'date'      a quoted 'YYYY-MM' or 'YYYY-MM-DD'
          'number'    a positive number (read as float)
          'count'     a positive integer;  'count0': an integer >= 0
          'bytes', 'bytes/s', 'FLOP/s'   a positive quantity written WITH its unit, e.g. '3.35 TB/s'
          'flops'     a table {dtype: 'FLOP/s' quantity}, e.g. { bf16 = "989 TFLOP/s" }
          'source'    a key of the file's [sources], an inline source table, or (where the registry
                      has per-figure sources) a table {figure: source key or inline table}
    """
    kind: str
    required: bool = False
    choices: tuple = ()          # the allowed values, where only a few are ("standard", "fast", ...)


# unit words accepted in quantity strings, per kind (decimal prefixes are powers of 1000, binary of 1024)
UNITS = {
    "bytes": {"B": 1, "kB": KB, "MB": MB, "GB": GB, "TB": TB, "PB": PB,
              "KiB": KiB, "MiB": MiB, "GiB": GiB, "TiB": TiB},
    "bytes/s": {"B/s": 1, "kB/s": KB, "MB/s": MB, "GB/s": GB, "TB/s": TB, "PB/s": PB},
    "FLOP/s": {"FLOP/s": 1, "GFLOP/s": 1e9, "TFLOP/s": 1e12, "PFLOP/s": 1e15, "EFLOP/s": 1e18},
}
_EXAMPLE = {"bytes": "80 GB", "bytes/s": "3.35 TB/s", "FLOP/s": "989 TFLOP/s"}


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _quantity(kind: str, value, fail):
    """'3.35 TB/s' -> 3.35 * TB (the multiplication a Python literal `3.35 * TB` would do)."""
    units = UNITS[kind]
    if not isinstance(value, str):
        fail(f"must be a string with its unit, e.g. {_EXAMPLE[kind]!r} (units: {', '.join(units)}), "
             f"got {value!r}")
    parts = value.split()
    number = None
    if len(parts) == 2:
        try:
            number = float(parts[0])
        except ValueError:
            pass
    if number is None or parts[1] not in units:
        fail(f"must be '<number> <unit>' with unit one of {', '.join(units)}, got {value!r}")
    if not (number > 0 and math.isfinite(number)):
        fail(f"must be positive, got {value!r}")
    return number * units[parts[1]]


def _source(value, sources: dict, fail) -> Source:
    """A Source from a key of [sources] or an inline table."""
    if isinstance(value, str):
        if value not in sources:
            close = difflib.get_close_matches(value, list(sources), n=3)
            hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
            fail(f"unknown source {value!r}{hint}; declare it as [sources.{value}] in this file")
        return sources[value]
    if isinstance(value, dict):
        return _make_source(value, fail)
    fail(f"must be a source key (a string) or an inline table {{url = ..., as_of = ..., quality = ...}}, "
         f"got {value!r}")


def _make_source(table: dict, fail) -> Source:
    """Check one source table (url, as_of, quality, note) and build the Source."""
    for key in table:
        if key not in ("url", "as_of", "quality", "note"):
            fail(f"unknown source field {key!r}; allowed: url, as_of, quality, note", f".{key}")
    for key in ("url", "as_of", "quality"):
        if key not in table:
            fail(f"the source lacks {key!r} (every source needs url, as_of and quality)", f".{key}")
    url, as_of, quality, note = table["url"], table["as_of"], table["quality"], table.get("note", "")
    if not isinstance(url, str) or not url.startswith("https://"):
        fail(f"a source url must be a string starting with 'https://', got {url!r}", ".url")
    if not isinstance(as_of, str) or not _DATE.match(as_of):
        fail(f"a source date must be a quoted 'YYYY-MM' or 'YYYY-MM-DD', got {as_of!r}", ".as_of")
    if quality not in QUALITY:
        fail(f"a source quality flag must be one of {', '.join(QUALITY)} "
             f"(primary, secondary, recalled, uncertain), got {quality!r}", ".quality")
    if not isinstance(note, str):
        fail(f"a source note must be a string, got {note!r}", ".note")
    return Source(url, as_of, quality, note)


def _check(kind: str, value, sources: dict, figures: tuple, fail, present: tuple | None = None):
    """Check one value of `kind` (see Field); return it converted (floats, Sources)."""
    if kind == "text":
        if not isinstance(value, str) or not value:
            fail(f"must be a non-empty string, got {value!r}")
        return value
    if kind == "date":
        if not isinstance(value, str) or not _DATE.match(value):
            fail(f"must be a quoted date 'YYYY-MM' or 'YYYY-MM-DD', got {value!r}")
        return value
    if kind == "number":
        if not _number(value):
            fail(f"must be a number, got {value!r}")
        if not (value > 0 and math.isfinite(value)):
            fail(f"must be positive, got {value!r}")
        return float(value)
    if kind in ("count", "count0"):
        if isinstance(value, bool) or not isinstance(value, int):
            fail(f"must be an integer, got {value!r}")
        if value < (1 if kind == "count" else 0):
            fail(f"must be {'positive' if kind == 'count' else '>= 0'}, got {value!r}")
        return value
    if kind in UNITS:
        return _quantity(kind, value, fail)
    if kind == "flops":
        if not isinstance(value, dict) or not value:
            fail(f"must be a table like {{ bf16 = \"989 TFLOP/s\" }}, got {value!r}")
        out = {}
        for dtype, v in value.items():
            try:
                canonical_dtype(dtype, "dtype")
            except ValueError as err:
                fail(str(err), f".{dtype}")
            out[dtype] = _quantity("FLOP/s", v, lambda problem, d=dtype: fail(problem, f".{d}"))
        return out
    if kind == "source":
        if isinstance(value, dict) and figures and "url" not in value:     # one source per figure
            for figure in value:
                if figure not in figures:
                    fail(f"unknown figure {figure!r} in a per-figure source table; figures: {', '.join(figures)}")
            for figure in (figures if present is None else present):    # every figure the row gives
                if figure not in value:
                    fail(f"the per-figure source table lacks {figure!r}", f".{figure}")
            return {figure: _source(v, sources, lambda problem, f=figure: fail(problem, f".{f}"))
                    for figure, v in value.items()}
        return _source(value, sources, fail)
    raise ValueError(f"unknown field kind {kind!r}")      # a schema bug, not a data bug


def read(path) -> dict:
    """The parsed TOML file at `path`; RegistryError naming the file (and line) on a syntax error."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as err:
        raise RegistryError(path, None, None, f"not valid TOML: {err}") from None


def load_file(path, tables: dict[str, dict[str, Field]], key: dict[str, tuple] | None = None,
              figures: tuple = ()) -> dict[str, list[tuple[str, dict]]]:
    """Read a registry file and check every row; return {table: [(row label, row as keyword arguments)]}.

    tables:  {name of a [[table]] array: {field name: Field}}; the file may hold these arrays and
             [sources.KEY] tables (url, as_of, quality, note), nothing else.
    key:     {table: the fields that name a row} (default ('name',)); names must be unique.
    figures: the figure names a per-figure source table may use.
    Rows come back with quantities converted to SI floats and sources to Source objects; the label
    ("'H100-SXM' of [[chips]]") is for error messages (see `build`).
    """
    doc = read(path)
    for top in doc:
        if top != "sources" and top not in tables:
            raise RegistryError(path, None, top, "unknown table; expected [sources.KEY] or "
                                                 + ", ".join(f"[[{t}]]" for t in tables))
    declared = doc.get("sources", {})
    if not isinstance(declared, dict):
        raise RegistryError(path, None, "sources", "must be tables [sources.KEY] with url, as_of, quality")
    sources = {}
    for name, table in declared.items():
        def fail(problem, suffix="", name=name):
            raise RegistryError(path, f"[sources.{name}]", suffix.lstrip(".") or None, problem)
        if not isinstance(table, dict):
            fail(f"must be a table with url, as_of, quality, got {table!r}")
        sources[name] = _make_source(table, fail)

    out = {}
    for table, fields in tables.items():
        rows = doc.get(table, [])
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise RegistryError(path, None, table, f"must be an array of tables, written [[{table}]]")
        key_fields = (key or {}).get(table, ("name",))
        seen, out[table] = set(), []
        for i, row in enumerate(rows, start=1):
            names = [row.get(k) for k in key_fields]
            name = ":".join(names) if all(isinstance(n, str) for n in names) else None
            label = f"{name!r} of [[{table}]]" if name else f"#{i} of [[{table}]]"
            for field in row:
                if field not in fields:
                    close = difflib.get_close_matches(field, list(fields), n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    raise RegistryError(path, label, field, f"unknown field{hint}; allowed: {', '.join(fields)}")
            for field, spec in fields.items():
                if spec.required and field not in row:
                    raise RegistryError(path, label, field, "missing required field")
            checked = {}
            for field, value in row.items():
                def fail(problem, suffix="", field=field, label=label):
                    raise RegistryError(path, label, field + suffix, problem)
                present = tuple(f for f in (figures or ()) if f in row)
                checked[field] = _check(fields[field].kind, value, sources, figures, fail, present)
                if fields[field].choices and value not in fields[field].choices:
                    fail(f"must be one of {', '.join(map(repr, fields[field].choices))}, got {value!r}")
            if name in seen:
                raise RegistryError(path, label, key_fields[-1], "duplicate: an earlier row has the same name")
            seen.add(name)
            out[table].append((label, checked))
    return out


def build(path, label: str, make, row: dict):
    """make(**row), turning the constructor's own ValueError/TypeError into a RegistryError for the row."""
    try:
        return make(**row)
    except (ValueError, TypeError) as err:
        raise RegistryError(path, label, None, str(err)) from err


def refer(path, label: str, field: str, find, value):
    """find(value) for a row's field that names something elsewhere (a chip, a model, a dtype), turning
    find's KeyError/ValueError (an unknown name, with close matches) into a RegistryError for that field."""
    try:
        return find(value)
    except (KeyError, ValueError) as err:
        raise RegistryError(path, label, field, str(err)) from None


# --- lookup -----------------------------------------------------------------------------------------

class UnknownNameError(KeyError):
    """A registry lookup failed; the message lists close matches."""

    def __str__(self) -> str:          # KeyError would print the message with quotes around it
        return str(self.args[0]) if self.args else ""


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def lookup(kind: str, name, registry: dict, aliases: dict | None = None):
    """Return registry[name], matching case- and punctuation-insensitively, or raise UnknownNameError."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name must be a string, got {name!r}")
    by_norm = {_norm(k): k for k in registry}
    for alias, target in (aliases or {}).items():
        by_norm.setdefault(_norm(alias), target)
    key = by_norm.get(_norm(name))
    if key is not None:
        return registry[key]
    close = difflib.get_close_matches(name, list(registry), n=3, cutoff=0.4)
    if not close:
        close = difflib.get_close_matches(_norm(name), list(by_norm), n=3, cutoff=0.4)
        close = [by_norm[c] for c in close]
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise UnknownNameError(f"unknown {kind} {name!r}.{hint} Known: {', '.join(registry)}")
