"""Shared pieces of the registries: sources with dates, and name lookup with helpful errors."""
from __future__ import annotations

import difflib
from dataclasses import dataclass


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
