"""Helpers shared by the practice-system tests (not a test module)."""
from __future__ import annotations

import copy
import hashlib
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def fill_from_solutions(exercise_path: Path, solution_path: Path | None = None):
    """The exercise notebook with each stubbed answer cell replaced by the solution's cell source."""
    solution_path = solution_path or ROOT / "solutions" / Path(exercise_path).name
    ex = nbformat.read(exercise_path, as_version=4)
    sol = nbformat.read(solution_path, as_version=4)
    by_id = {c.get("id"): c for c in sol.cells}
    filled = copy.deepcopy(ex)
    for cell in filled.cells:
        src = by_id.get(cell.get("id"))
        if src is not None and "BEGIN SOLUTION" in src.source and cell.cell_type == "code":
            cell.source = src.source
    return filled


def digests(folder: Path) -> dict:
    """sha256 of every file under `folder` (to prove that grading modifies nothing)."""
    return {p: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}
