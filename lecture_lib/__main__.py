"""Command line:  python -m lecture_lib <command> ...

    python -m lecture_lib assign [--check]                      exercises/ from solutions/
    python -m lecture_lib grade PATH... [--csv FILE] [--feedback DIR] [--timeout SECONDS]
    python -m lecture_lib flashcards [--chapter N] [--export FILE]

To add a command: write a module with `add_arguments(parser)` and `main(args) -> int`, and add one
line to COMMANDS.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module with add_arguments/main, one-line help)
COMMANDS = {
    "assign": ("lecture_lib.practice.assign", "generate exercises/ from solutions/ (--check: verify)"),
    "grade": ("lecture_lib.practice.grade", "grade submitted notebooks in fresh kernels"),
    "flashcards": ("lecture_lib.practice.drill_terminal", "drill the flashcards in the terminal, or export"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lecture_lib",
                                     description="The course's tools: exercises, grading, flashcards.")
    sub = parser.add_subparsers(dest="command", metavar="command")
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(module).add_arguments(p)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    module = importlib.import_module(COMMANDS[args.command][0])
    return module.main(args) or 0


if __name__ == "__main__":
    sys.exit(main())
