"""Flashcard types, and the deck assembled from the card modules listed in DECKS.

Chapters are the LECTURE's seven chapters (1 batch size & cost, 2 MoE on racks, 3 pipeline
parallelism, 4 "pipelining is not wise", 5 RL & over-training, 6 prices as evidence, 7 nets &
ciphers); a card's `notebook` field says which course notebook teaches it ("01", "02", ...).

Three kinds of item:
- `Card` with value=None: a text card (question -> answer), graded by the learner.
- `Card` with a value: a numeric card; its answer is computed by lecture_lib when the deck is built,
  and a typed answer is accepted within `rtol`.
- `Drill`: a template that draws fresh numbers each time (`drill.draw(rng)` -> a numeric Card).

A card module (`cards_NN.py` for notebook NN, or a theme such as `cards_lecture.py`) defines
`def cards() -> list[Card]` and/or `DRILLS = [Drill(...)]`. To add one, write the module and add its
name to DECKS: the deck is those modules' cards and drills, in DECKS order. Card ids must be unique and stable (progress is stored by id).
Card text is plain text (newlines allowed); `as_html` renders it for the widget and the Anki export.
"""
from __future__ import annotations

import html
import math
import random
from dataclasses import dataclass
from importlib import import_module
from typing import Callable

#: the card modules of the deck, in deck order (each imported when the deck is assembled)
DECKS = ("cards_lecture", "cards_numeric", "cards_02", "cards_03", "cards_04", "cards_05", "cards_06", "cards_07", "cards_08")

CHAPTERS = {1: "Batch size, cost and speed", 2: "MoE on GPU racks", 3: "Pipeline parallelism",
            4: "Pipelining is not wise", 5: "RL and over-training", 6: "Prices as evidence",
            7: "Neural nets and ciphers"}


@dataclass
class Card:
    """One card. front/back are plain text (newlines allowed); value (in `unit`) makes it numeric."""
    id: str
    chapter: int
    front: str
    back: str
    notebook: str = ""
    tags: tuple = ()
    value: float | None = None
    unit: str = ""
    rtol: float = 0.02
    origin: str = "lecture"      # "lecture" (the 27), "numeric", "drill", or a helper's own label

    @property
    def numeric(self) -> bool:
        return self.value is not None

    def check(self, typed) -> bool:
        """True when `typed` (a number or text like '23.9', '2.4e3', '1,200 ms') is within rtol."""
        x = parse_number(typed, self.unit)
        return x is not None and self.value is not None and \
            abs(x - self.value) <= self.rtol * abs(self.value)

    def all_tags(self) -> list[str]:
        tags = ["lecture_lib", f"chapter-{self.chapter}", self.origin]
        if self.notebook:
            tags.append(f"notebook-{self.notebook}")
        return tags + [t for t in self.tags if t not in tags]


@dataclass
class Drill:
    """A randomized numeric card: `make(rng)` returns (front, value, back) with fresh numbers."""
    id: str
    chapter: int
    make: Callable[[random.Random], tuple]
    unit: str = ""
    rtol: float = 0.02
    notebook: str = ""
    tags: tuple = ()

    def draw(self, rng: random.Random | None = None) -> Card:
        front, value, back = self.make(rng or random.Random())
        return Card(self.id, self.chapter, front, back, self.notebook, self.tags, float(value),
                    self.unit, self.rtol, "drill")


def parse_number(typed, unit: str = "") -> float | None:
    """A float from a typed answer, or None. Accepts '1,200', '2.4e3', '23.9 ms' (the card's unit)."""
    if isinstance(typed, (int, float)) and not isinstance(typed, bool):
        x = float(typed)
    else:
        s = str(typed).strip().replace(",", "").replace("_", "")
        if unit and s.endswith(unit):
            s = s[: -len(unit)].strip()
        s = s.replace("×10^", "e").replace("x10^", "e").replace("*10**", "e")
        try:
            x = float(s)
        except ValueError:
            return None
    return x if math.isfinite(x) else None


def as_html(text: str) -> str:
    """Card text as HTML: <, >, & escaped, line breaks (\n, \r\n, a lone \r) as <br>, tabs as spaces."""
    text = html.escape(text, quote=False)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\t", "    ").replace("\n", "<br>")


def all_items() -> list:
    """Every card and drill of the DECKS modules, in DECKS order (each module: cards, then drills)."""
    items: list = []
    for name in DECKS:
        module = import_module(f".{name}", __package__)
        if hasattr(module, "cards"):
            items += list(module.cards())
        items += list(getattr(module, "DRILLS", []))
    ids = [i.id for i in items]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"flashcard ids must be unique; repeated: {dup}")
    return items
