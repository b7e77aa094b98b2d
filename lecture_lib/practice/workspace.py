"""The learner workspace: `my_work/`, your own copies of the worksheets, where you answer.

    python -m lecture_lib workspace                  copy any worksheet you do not have yet
    python -m lecture_lib workspace --fresh 01       a fresh copy of worksheet 01; yours is kept aside

`make lab` runs the first form before it opens JupyterLab. my_work/ is git-ignored, so working through
the course never changes a tracked file and `make test` stays green. A worksheet already in my_work/
is never overwritten, even when exercises/ changes; `--fresh NAME` first renames yours to
`NAME.ipynb.old-<date-time>` (nothing you typed is lost), then copies the current worksheet.
"""
from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

WORKSPACE_DIR = "my_work"
_README = """\
# my_work: your answers

Your own copies of the worksheets in `exercises/`, made by `make lab` or
`python -m lecture_lib workspace`. Answer here: this folder is git-ignored, so nothing you type
changes the course's files or breaks `make test`. Copies are never overwritten; for a fresh copy
of a worksheet run `python -m lecture_lib workspace --fresh 01` (yours is renamed, not deleted).

Check a whole worksheet at once: `.venv/bin/pytest --nbval-lax --nbval-current-env my_work/01_*.ipynb`.
"""


def course_root() -> Path:
    """The course checkout this package was installed from (the folder holding exercises/)."""
    return Path(__file__).resolve().parents[2]


def ensure_workspace(root: Path | str | None = None, dest: Path | str | None = None) -> list[Path]:
    """Copy each exercises/*.ipynb that dest (default root/my_work) lacks; return the new copies.

    Existing copies are left exactly as they are.
    """
    root = Path(root) if root else course_root()
    dest = Path(dest) if dest else root / WORKSPACE_DIR
    sheets = sorted((root / "exercises").glob("*.ipynb"))
    if not sheets:
        raise FileNotFoundError(f"no worksheets in {root / 'exercises'}: run this from the course "
                                "checkout, or pass --root")
    dest.mkdir(parents=True, exist_ok=True)
    if not (dest / "README.md").exists():
        (dest / "README.md").write_text(_README, encoding="utf-8")
    made = []
    for sheet in sheets:
        target = dest / sheet.name
        if not target.exists():
            shutil.copyfile(sheet, target)
            made.append(target)
    return made


def fresh_copy(name: str, root: Path | str | None = None, dest: Path | str | None = None) -> tuple:
    """A new copy of the worksheet whose file name starts with `name` ("01", "01_roofline...").

    Returns (new copy, the old copy's new name or None). The old copy is renamed, never deleted.
    """
    root = Path(root) if root else course_root()
    dest = Path(dest) if dest else root / WORKSPACE_DIR
    stem = name.removesuffix(".ipynb")
    matches = sorted(p for p in (root / "exercises").glob("*.ipynb") if p.stem.startswith(stem))
    if len(matches) != 1:
        names = ", ".join(p.stem for p in sorted((root / "exercises").glob("*.ipynb")))
        raise ValueError(f"{name!r} names {len(matches)} worksheets; give one of: {names}")
    sheet = matches[0]
    dest.mkdir(parents=True, exist_ok=True)
    target, aside = dest / sheet.name, None
    if target.exists():
        aside = target.with_name(f"{target.name}.old-{time.strftime('%Y%m%d-%H%M%S')}")
        n = 1
        while aside.exists():
            n += 1
            aside = aside.with_name(f"{target.name}.old-{time.strftime('%Y%m%d-%H%M%S')}~{n}")
        target.rename(aside)
    shutil.copyfile(sheet, target)
    return target, aside


# --- the command: python -m lecture_lib workspace -------------------------------------------------
def add_arguments(parser) -> None:
    parser.add_argument("--fresh", metavar="NAME", default=None,
                        help="replace your copy of worksheet NAME (e.g. 01) with a fresh one; yours "
                             "is renamed NAME.ipynb.old-<time>, not deleted")
    parser.add_argument("--root", type=Path, default=None,
                        help="the course checkout (default: the one lecture_lib was installed from)")


def main(args, stdout=None) -> int:
    out = stdout or sys.stdout
    root = args.root or course_root()
    try:
        if args.fresh:
            target, aside = fresh_copy(args.fresh, root)
            kept = f"; your old copy is {aside.name}" if aside else ""
            print(f"fresh copy: {target.relative_to(root)}{kept}", file=out)
            return 0
        made = ensure_workspace(root)
    except (OSError, ValueError) as exc:
        print(f"workspace: {exc}", file=sys.stderr)
        return 1
    dest = root / WORKSPACE_DIR
    if made:
        print(f"{WORKSPACE_DIR}/: copied {', '.join(p.name for p in made)}. Answer there (git-ignored).",
              file=out)
    else:
        print(f"{WORKSPACE_DIR}/: all {len(list(dest.glob('*.ipynb')))} worksheets already there "
              "(kept as they are; --fresh NAME for a new copy).", file=out)
    return 0
