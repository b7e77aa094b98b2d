"""The flashcards in a terminal: the `python -m lecture_lib flashcards` command.

    python -m lecture_lib flashcards [--chapter N]        drill in the terminal (Ctrl-D quits)
    python -m lecture_lib flashcards --export deck.txt    tab-separated file for Anki's File > Import

Text cards: Enter reveals, then 1-4 grades (again, hard, good, easy). Numeric cards and drills: type
a number; right -> "good", wrong or blank -> "again". Scheduling and progress: see scheduler.py.
"""
from __future__ import annotations

import io
import random
import sys
from pathlib import Path

from .anki import export_anki
from .cards import CHAPTERS, all_items, parse_number
from .scheduler import GRADES, Progress, Session


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


# --- the command: python -m lecture_lib flashcards ------------------------------------------------
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
    progress = Progress(log=io.StringIO())     # run_terminal reports a set-aside file itself
    return run_terminal(Session(items, progress, None, rng), stdin, stdout)
