"""Command line:  python -m lecture_lib <command> ...

    python -m lecture_lib assign [--check]                      exercises/ from solutions/
    python -m lecture_lib assign --roster R.csv --secret-file K  one worksheet set per student
    python -m lecture_lib grade PATH... [--csv FILE] [--feedback DIR] [--timeout SECONDS]
                                 [--sandbox auto|bwrap|none] [--roster R.csv --secret-file K]
    python -m lecture_lib nbgrader DIR                          an nbgrader course folder
    python -m lecture_lib flashcards [--chapter N] [--export FILE]
    python -m lecture_lib workspace [--fresh NAME]              my_work/: your copies of the worksheets
    python -m lecture_lib site [--out DIR] [--only NN] [--check]  the course as a static site (make html)

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
    "nbgrader": ("lecture_lib.practice.nbgrader_course", "write an nbgrader course folder from solutions/"),
    "flashcards": ("lecture_lib.practice.drill_terminal", "drill the flashcards in the terminal, or export"),
    "workspace": ("lecture_lib.practice.workspace", "copy the worksheets you lack into my_work/ (never overwrites)"),
    "site": ("lecture_lib.site", "execute and render the course to a static site in site/ (make html)"),
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
