"""The flashcards in a terminal: the `python -m lecture_lib flashcards` command.

    python -m lecture_lib flashcards [--chapter N]        drill in the terminal (q, Ctrl-D or Ctrl-C quits)
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
    """Drill in a terminal. Reads lines from stdin; end of input (Ctrl-D), 'q' or Ctrl-C ends cleanly."""
    out = stdout or sys.stdout
    try:
        return _drill(session, stdin or sys.stdin, out)
    except KeyboardInterrupt:            # Ctrl-C: every grade so far is already saved
        print(f"\n{_stopped(session)}", file=out)
        return 0


def _stopped(session: Session) -> str:
    kept = "saved" if session.progress.saving else "not saved (see above)"
    return f"Stopped; {session.reviewed} review(s) {kept}."


def _drill(session: Session, stdin, out) -> int:
    shown = [""]

    def note():
        """Print the progress file's message (set aside, cannot save) once, when it appears."""
        if session.progress.message and session.progress.message != shown[0]:
            shown[0] = session.progress.message
            print(session.progress.message, file=out)

    def ask(prompt: str):
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if line == "":
            return None          # EOF
        line = line.strip()
        return None if line.lower() in ("q", "quit", "exit") else line

    note()
    kept = "progress is saved" if session.progress.saving else "progress is NOT saved"
    print(f"{len(session)} card(s) due. Enter reveals, q, Ctrl-D or Ctrl-C stops ({kept}).", file=out)
    while True:
        note()
        card = session.next()
        if card is None:
            kept = "" if session.progress.saving else ", not saved"
            print(f"All due cards done ({session.reviewed} reviews{kept}). Come back tomorrow.", file=out)
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
                print(f"\n{_stopped(session)}", file=out)
                return 0
            choice = {"1": "again", "2": "hard", "3": "good", "4": "easy"}.get(g, g.lower())
            if choice in GRADES:
                session.grade(choice)
                break
            print("  please type 1, 2, 3 or 4", file=out)
    note()
    print(f"\n{_stopped(session)}", file=out)
    return 0


# --- the command: python -m lecture_lib flashcards ------------------------------------------------
def add_arguments(parser) -> None:
    parser.add_argument("--chapter", type=int, choices=sorted(CHAPTERS), default=None,
                        help="only this lecture chapter (1-7)")
    parser.add_argument("--export", type=Path, metavar="FILE", default=None,
                        help="write the deck as a tab-separated file for Anki and exit")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for the drills' random numbers (drilling: fresh ones each run by "
                             "default; --export: 0 by default, so the same deck gives the same file; "
                             "another seed exports new drill samples as new Anki notes)")


def main(args, stdin=None, stdout=None) -> int:
    items = all_items()
    if args.chapter is not None:
        items = [i for i in items if i.chapter == args.chapter]
    if args.export:
        n = export_anki(args.export, items, seed=args.seed or 0)
        print(f"wrote {n} cards to {args.export} (Anki: File > Import, fields separated by tabs)",
              file=stdout or sys.stdout)
        return 0
    progress = Progress(log=io.StringIO())     # run_terminal shows the progress file's messages itself
    return run_terminal(Session(items, progress, None, random.Random(args.seed)), stdin, stdout)
