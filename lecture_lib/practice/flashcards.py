"""Flashcards: spaced repetition (Leitner boxes), a widget, a terminal drill and an Anki export.

    python -m lecture_lib flashcards [--chapter N]        drill in the terminal (Ctrl-D quits)
    python -m lecture_lib flashcards --export deck.txt    tab-separated file for Anki's File > Import

Scheduling: the Leitner system with 5 boxes. A new card starts in box 1. Grades:
"again" -> box 1, "hard" -> same box, "good" -> one box up, "easy" -> two boxes up (at most 5).
A card is due again after INTERVAL_DAYS[box] days (box 1: at once, 2: 1 day, 3: 3 days,
4: 7 days, 5: 21 days). Within a session a card graded "again" comes back at the end of the queue.
Numeric cards and drills are graded by the typed answer: right -> "good", wrong or blank -> "again".
Drills are scheduled like cards (by drill id) but draw fresh numbers every time they are shown.

Progress is one JSON file, `flashcards.json` in the user's data folder: LECTURE_LIB_DATA_DIR if set,
else ~/Library/Application Support/lecture_lib (macOS), %APPDATA%/lecture_lib (Windows), or
$XDG_DATA_HOME/lecture_lib (default ~/.local/share/lecture_lib). It is written atomically (a
temporary file, then os.replace); a corrupt file is renamed to flashcards.json.corrupt-<time>, a
message says so, and practice starts afresh.
"""
from __future__ import annotations

import html
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from .deck import CHAPTERS, Card, Drill, all_items, parse_number

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
        self.message = ""          # set when a corrupt file was set aside
        self.cards: dict[str, dict] = {}
        self.load()

    def load(self) -> None:
        if not self.path.exists():
            self.cards = {}
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            cards = data["cards"]
            if not isinstance(cards, dict) or not all(
                    isinstance(v, dict) and isinstance(v.get("box"), int) and
                    isinstance(v.get("due"), (int, float)) for v in cards.values()):
                raise ValueError("bad card entries")
            self.cards = cards
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            n = 1
            while aside.exists():
                n += 1
                aside = aside.with_name(f"{aside.name.split('~')[0]}~{n}")
            os.replace(self.path, aside)
            self.message = (f"Your flashcard progress file could not be read ({type(exc).__name__}); "
                            f"it was moved to {aside} and practice starts afresh.")
            print(self.message, file=self.log)
            self.cards = {}

    def save(self) -> None:
        """Write atomically: a temporary file in the same folder, then os.replace."""
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
        return entry is None or entry["due"] <= (time.time() if now is None else now)

    def record(self, card_id: str, grade: str, now: float | None = None, save: bool = True) -> dict:
        """Apply a grade ("again", "hard", "good", "easy") and save."""
        if grade not in GRADES:
            raise ValueError(f"grade must be one of {GRADES}, got {grade!r}")
        now = time.time() if now is None else now
        e = dict(self.cards.get(card_id, {"box": 1, "reviews": 0, "lapses": 0}))
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


# --- terminal drill ------------------------------------------------------------------------------
def run_terminal(session: Session, stdin=None, stdout=None) -> int:
    """Drill in a terminal. Reads lines from stdin; end of input (Ctrl-D) or 'q' ends cleanly."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def ask(prompt: str):
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if line == "":
            return None          # EOF
        line = line.strip()
        return None if line.lower() in ("q", "quit", "exit") else line

    if session.progress.message:
        print(session.progress.message, file=out)
    print(f"{len(session)} card(s) due. Enter reveals, q or Ctrl-D stops (progress is saved).", file=out)
    while True:
        card = session.next()
        if card is None:
            print(f"All due cards done ({session.reviewed} reviews). Come back tomorrow.", file=out)
            return 0
        print(f"\n[chapter {card.chapter}] {card.front}", file=out)
        if card.numeric:
            typed = ask(f"your answer{' in ' + card.unit if card.unit else ''} (Enter = show): ")
            if typed is None:
                break
            if typed and parse_number(typed, card.unit) is None:
                print("  (not a number; counted as 'show')", file=out)
            right = bool(typed) and card.check(typed)
            print(("  ✓ right. " if right else "  ✗ not quite. ") + card.back.replace("\n", "\n  "),
                  file=out)
            session.grade("good" if right else "again")
            continue
        if ask("(Enter to reveal) ") is None:
            break
        print("  " + card.back.replace("\n", "\n  "), file=out)
        while True:
            g = ask("how well did you know it? 1 again, 2 hard, 3 good, 4 easy: ")
            if g is None:
                print(f"\nStopped; {session.reviewed} review(s) saved.", file=out)
                return 0
            choice = {"1": "again", "2": "hard", "3": "good", "4": "easy"}.get(g, g.lower())
            if choice in GRADES:
                session.grade(choice)
                break
            print("  please type 1, 2, 3 or 4", file=out)
    print(f"\nStopped; {session.reviewed} review(s) saved.", file=out)
    return 0


# --- Anki export ---------------------------------------------------------------------------------
def _anki_field(text: str) -> str:
    text = html.escape(text, quote=False)
    return text.replace("\r\n", "\n").replace("\t", "    ").replace("\n", "<br>")


def export_anki(path, items=None, rng: random.Random | None = None) -> int:
    """Write a tab-separated file (front, back, tags) that Anki imports; returns the card count.

    Fields are HTML (Anki's "allow HTML"): <, >, & escaped, newlines as <br>, tabs as spaces.
    Drills are exported as one sample each, tagged `drill` (their numbers are fixed in Anki).
    """
    items = list(all_items() if items is None else items)
    rng = rng or random.Random(0)
    lines = ["#separator:tab", "#html:true", "#tags column:3"]
    for item in items:
        card = item.draw(rng) if isinstance(item, Drill) else item
        back = card.back
        if card.numeric:
            back = f"{card.value:.4g} {card.unit}".strip() + "\n" + back
        tags = " ".join(t.replace(" ", "_") for t in card.all_tags())
        lines.append("\t".join([_anki_field(card.front), _anki_field(back), tags]))
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(items)


# --- widget --------------------------------------------------------------------------------------
class FlashcardWidget:
    """The drill in a notebook: question, reveal, typed answers for numeric cards, four grades.

        w = FlashcardWidget();  w          # displays itself
    Test it headlessly: set w.chapter.value, w.answer.value; call w.reveal_button.click() etc.
    """

    def __init__(self, items=None, progress: Progress | None = None, chapter: int | None = None,
                 rng: random.Random | None = None, now: float | None = None):
        import ipywidgets as W
        self._items = items
        self.progress = progress if progress is not None else Progress()
        self.rng = rng or random.Random()
        self.now = now
        opts = [("all chapters", 0)] + [(f"{k}. {v}", k) for k, v in CHAPTERS.items()]
        self.chapter = W.Dropdown(options=opts, value=chapter or 0, description="Chapter")
        self.status = W.HTML()
        self.front = W.HTML()
        self.answer = W.Text(placeholder="your answer (a number)", layout=W.Layout(width="240px"))
        self.check_button = W.Button(description="Check", button_style="primary")
        self.reveal_button = W.Button(description="Reveal")
        self.back = W.HTML()
        self.grade_buttons = {g: W.Button(description=g) for g in GRADES}
        self.next_button = W.Button(description="Next card")
        self.answer_row = W.HBox([self.answer, self.check_button])
        self.grade_row = W.HBox(list(self.grade_buttons.values()))
        self.widget = W.VBox([self.chapter, self.status, self.front, self.answer_row,
                              self.reveal_button, self.back, self.grade_row, self.next_button])
        self.check_button.on_click(lambda _: self._check())
        self.reveal_button.on_click(lambda _: self._reveal())
        self.next_button.on_click(lambda _: self._show_next())
        for g, b in self.grade_buttons.items():
            b.on_click(lambda _, g=g: self._grade(g))
        self.chapter.observe(lambda _: self._restart(), names="value")
        self._restart()

    def _ipython_display_(self):
        from IPython.display import display
        display(self.widget)

    def _restart(self):
        self.session = Session(self._items, self.progress, self.chapter.value or None, self.rng, self.now)
        self._show_next()

    def _show_next(self):
        card = self.session.next()
        self.back.value = ""
        self.answer.value = ""
        self.grade_row.layout.display = "none"
        self.next_button.layout.display = "none"
        if card is None:
            self.front.value = "<b>Nothing due here.</b> Come back tomorrow, or pick another chapter."
            self.answer_row.layout.display = "none"
            self.reveal_button.layout.display = "none"
            self.status.value = f"{self.session.reviewed} review(s) this session."
            return
        note = f"<i>{html.escape(self.progress.message)}</i><br>" if self.progress.message else ""
        self.status.value = (f"{note}chapter {card.chapter} · box {self.progress.box(card.id)} · "
                             f"{len(self.session.queue)} more due")
        unit = f" <small>(answer in {html.escape(card.unit)})</small>" if card.numeric and card.unit else ""
        self.front.value = f"<b>{_anki_field(card.front)}</b>{unit}"
        self.answer_row.layout.display = "flex" if card.numeric else "none"
        self.reveal_button.layout.display = "none" if card.numeric else "inline-flex"

    def _check(self):
        card = self.session.current
        if card is None or not card.numeric:
            return
        right = card.check(self.answer.value)
        verdict = "✓ right." if right else "✗ not quite."
        self.back.value = f"{verdict}<br>{_anki_field(card.back)}"
        self.session.grade("good" if right else "again")
        self.answer_row.layout.display = "none"
        self.next_button.layout.display = "inline-flex"

    def _reveal(self):
        card = self.session.current
        if card is None or card.numeric:
            return
        self.back.value = _anki_field(card.back)
        self.reveal_button.layout.display = "none"
        self.grade_row.layout.display = "flex"

    def _grade(self, grade: str):
        if self.session.current is None:
            return
        self.session.grade(grade)
        self._show_next()


# --- command line --------------------------------------------------------------------------------
def add_arguments(parser) -> None:
    parser.add_argument("--chapter", type=int, choices=sorted(CHAPTERS), default=None,
                        help="only this lecture chapter (1-7)")
    parser.add_argument("--export", type=Path, metavar="FILE", default=None,
                        help="write the deck as a tab-separated file for Anki and exit")
    parser.add_argument("--seed", type=int, default=None, help="seed for the drills' random numbers")


def main(args, stdin=None, stdout=None) -> int:
    rng = random.Random(args.seed)
    items = all_items()
    if args.chapter is not None:
        items = [i for i in items if i.chapter == args.chapter]
    if args.export:
        n = export_anki(args.export, items, rng)
        print(f"wrote {n} cards to {args.export} (Anki: File > Import, fields separated by tabs)",
              file=stdout or sys.stdout)
        return 0
    import io
    progress = Progress(log=io.StringIO())     # run_terminal reports a set-aside file itself
    return run_terminal(Session(items, progress, None, rng), stdin, stdout)
