"""Spaced repetition: Leitner boxes, the progress file, and a session's queue of due cards.

Scheduling: the Leitner system with 5 boxes. A new card starts in box 1. Grades:
"again" -> box 1, "hard" -> same box, "good" -> one box up, "easy" -> two boxes up (at most 5).
A card is due again after INTERVAL_DAYS[box] days (box 1: at once, 2: 1 day, 3: 3 days,
4: 7 days, 5: 21 days). Within a session a card graded "again" comes back at the end of the queue.
Numeric cards and drills are graded by the typed answer (the interfaces map right -> "good",
wrong or blank -> "again"). Drills are scheduled like cards (by drill id) but draw fresh numbers
every time they are shown.

Progress is one JSON file, `flashcards.json` in the user's data folder: LECTURE_LIB_DATA_DIR if set,
else ~/Library/Application Support/lecture_lib (macOS), %APPDATA%/lecture_lib (Windows), or
$XDG_DATA_HOME/lecture_lib (default ~/.local/share/lecture_lib). It is written atomically (a
temporary file, then os.replace); a corrupt file is renamed to flashcards.json.corrupt-<time>, a
message says so, and practice starts afresh. A card whose entry is damaged (a due date that is not a
finite number, a box outside 1-5) is due at once, in box 1. When the progress cannot be read or saved
(a read-only folder, a directory named flashcards.json, a file that cannot be set aside) one line says
so and practice goes on without saving.
"""
from __future__ import annotations

import json
import math
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from .cards import CHAPTERS, Card, Drill, all_items

GRADES = ("again", "hard", "good", "easy")
N_BOXES = 5
INTERVAL_DAYS = {1: 0.0, 2: 1.0, 3: 3.0, 4: 7.0, 5: 21.0}
DAY_S = 86400.0


def data_dir() -> Path:
    """The folder for the user's course data (see the module docstring for the rules)."""
    env = os.environ.get("LECTURE_LIB_DATA_DIR")
    if env:
        return Path(env)
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "lecture_lib"
    if sys.platform.startswith("win"):
        return Path(os.environ.get("APPDATA", home / "AppData" / "Roaming")) / "lecture_lib"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "lecture_lib"


class Progress:
    """Leitner state per card id: {"box", "due" (epoch s), "reviews", "lapses"}; saved atomically."""

    def __init__(self, path: Path | str | None = None, log=None):
        self.path = Path(path) if path else data_dir() / "flashcards.json"
        self.log = log if log is not None else sys.stderr
        self.message = ""          # set when a corrupt file was set aside, or saving is off
        self.saving = True         # False once the file cannot be read, set aside or written
        self.cards: dict[str, dict] = {}
        self.load()

    def _say(self, message: str) -> None:
        """Report a problem once, on one line; the interfaces show self.message too."""
        self.message = message
        print(message, file=self.log)

    def _stop_saving(self, lead: str, exc: BaseException) -> None:
        self.saving = False
        self._say(f"{lead} ({type(exc).__name__}: {getattr(exc, 'strerror', None) or exc}); "
                  "practice goes on without saving.")

    def load(self) -> None:
        try:
            if not self.path.exists():
                self.cards = {}
                return
            text = self.path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            return self._set_aside(exc)
        except OSError as exc:           # a directory of that name, no permission to read
            self.cards = {}
            return self._stop_saving(f"Flashcard progress cannot be read from {self.path}", exc)
        try:
            data = json.loads(text)
            cards = data["cards"]
            if not isinstance(cards, dict) or not all(isinstance(v, dict) for v in cards.values()):
                raise ValueError("bad card entries")
        except (ValueError, KeyError, TypeError) as exc:
            return self._set_aside(exc)
        self.cards, repaired = {}, 0
        for card_id, entry in cards.items():
            fixed = _repaired(entry)
            repaired += fixed is not entry
            self.cards[card_id] = fixed
        if repaired:
            self._say(f"{repaired} flashcard(s) in {self.path} had a damaged entry (due date or box); "
                      "they are due now, in box 1.")

    def _set_aside(self, exc: BaseException) -> None:
        """Rename a corrupt file to flashcards.json.corrupt-<time> and start afresh."""
        self.cards = {}
        aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        n = 1
        while aside.exists():
            n += 1
            aside = aside.with_name(f"{aside.name.split('~')[0]}~{n}")
        try:
            os.replace(self.path, aside)
        except OSError as exc2:          # read-only folder: keep the file, never overwrite it
            return self._stop_saving(f"Flashcard progress file {self.path} could not be read "
                                     f"({type(exc).__name__}) nor set aside", exc2)
        self._say(f"Your flashcard progress file could not be read ({type(exc).__name__}); "
                  f"it was moved to {aside} and practice starts afresh.")

    def save(self) -> bool:
        """Write atomically (a temporary file in the same folder, then os.replace); False if not saved.

        When the folder cannot be written, one line says so and later saves are skipped.
        """
        if not self.saving:
            return False
        try:
            self._write()
        except OSError as exc:
            self._stop_saving(f"Flashcard progress cannot be saved to {self.path}", exc)
            return False
        return True

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": 1, "scheduler": "leitner-5", "cards": self.cards},
                          indent=1, sort_keys=True)
        fd, tmp = tempfile.mkstemp(prefix=".flashcards-", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def box(self, card_id: str) -> int:
        return self.cards.get(card_id, {}).get("box", 1)

    def is_due(self, card_id: str, now: float | None = None) -> bool:
        entry = self.cards.get(card_id)
        # `not due > now`: a due date that is not a number (NaN) makes the card due, never retired
        return entry is None or not (entry["due"] > (time.time() if now is None else now))

    def record(self, card_id: str, grade: str, now: float | None = None, save: bool = True) -> dict:
        """Apply a grade ("again", "hard", "good", "easy") and save."""
        if grade not in GRADES:
            raise ValueError(f"grade must be one of {GRADES}, got {grade!r}")
        now = time.time() if now is None else now
        e = _repaired(dict(self.cards.get(card_id, {"box": 1, "due": now, "reviews": 0, "lapses": 0})))
        box = e["box"]
        box = {"again": 1, "hard": box, "good": box + 1, "easy": box + 2}[grade]
        e["box"] = max(1, min(N_BOXES, box))
        e["reviews"] = e.get("reviews", 0) + 1
        e["lapses"] = e.get("lapses", 0) + (grade == "again")
        e["due"] = now + INTERVAL_DAYS[e["box"]] * DAY_S
        self.cards[card_id] = e
        if save:
            self.save()
        return e


def _repaired(entry: dict) -> dict:
    """The entry itself when its box (1-5) and due date (a finite number) are sound; else a copy due
    at once (due 0) in box 1, keeping the review counts."""
    box, due = entry.get("box"), entry.get("due")
    if (isinstance(box, int) and not isinstance(box, bool) and 1 <= box <= N_BOXES and
            isinstance(due, (int, float)) and not isinstance(due, bool) and math.isfinite(due)):
        return entry
    return {**entry, "box": 1, "due": 0.0}


def _chapter_ok(item, chapter) -> bool:
    return chapter is None or item.chapter == int(chapter)


class Session:
    """A queue of the due items (optionally one chapter). `next()` -> Card or None; `grade(g)`."""

    def __init__(self, items=None, progress: Progress | None = None, chapter: int | None = None,
                 rng: random.Random | None = None, now: float | None = None):
        self.items = list(all_items() if items is None else items)
        self.progress = progress if progress is not None else Progress()
        self.rng = rng or random.Random()
        self.now = now
        if chapter is not None and int(chapter) not in CHAPTERS:
            raise ValueError(f"chapter must be one of {sorted(CHAPTERS)}, got {chapter!r}")
        due = [i for i in self.items if _chapter_ok(i, chapter) and self.progress.is_due(i.id, now)]
        seen = [i for i in due if i.id in self.progress.cards]
        new = [i for i in due if i.id not in self.progress.cards]
        self.queue = sorted(seen, key=lambda i: self.progress.box(i.id)) + new
        self.current: Card | None = None
        self.reviewed = 0

    def __len__(self) -> int:
        return len(self.queue) + (self.current is not None)

    def next(self) -> Card | None:
        """The next card to show (drills are drawn now, with fresh numbers), or None when done."""
        if not self.queue:
            self.current = None
            return None
        item = self.queue.pop(0)
        self.current = item.draw(self.rng) if isinstance(item, Drill) else item
        self._item = item
        return self.current

    def grade(self, grade: str) -> None:
        """Grade the current card; "again" puts it back at the end of this session's queue."""
        if self.current is None:
            raise RuntimeError("no current card: call next() first")
        self.progress.record(self.current.id, grade, self.now)
        self.reviewed += 1
        if grade == "again":
            self.queue.append(self._item)
        self.current = None

