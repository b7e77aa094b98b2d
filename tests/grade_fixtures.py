"""Small notebooks for the grader tests (not a test module): a four-problem 'mini' assignment
that runs in a couple of seconds, its right and wrong answers, and hostile submissions."""
from __future__ import annotations

from pathlib import Path

import nbformat

SETUP = ("from lecture_lib import hardware, models\n"
         "from lecture_lib.units import MS\n"
         "from lecture_lib.practice import check\n"
         "from lecture_lib.practice.bank_01 import GIVEN\n"
         "import sympy as sp\n"
         "from lecture_lib.notation import B, F, BW, N_act, N_tot, b_w\n"
         "hw, m = hardware.get(GIVEN.hw), models.get(GIVEN.model)")
RIGHT = {
    "01.t_compute_ms": "answer = 2 * GIVEN.batch * m.active_params / hw.flops(GIVEN.weight_dtype) / MS",
    "01.bound_choice": 'answer = "c"',
    "01.kv_bug_factor": "g = models.get(GIVEN.bug_model)\nanswer = g.n_heads / g.n_kv_heads",
    "01.balance_batch_expr": "answer = sp.solve(sp.Eq(2 * B * N_act / F, N_tot * b_w / BW), B)[0]",
}
WRONG = {"01.t_compute_ms": "answer = 123.0", "01.bound_choice": 'answer = "a"',
         "01.kv_bug_factor": "answer = 1.0", "01.balance_batch_expr": "answer = B"}
STUB = {pid: "answer = ...  # your answer" for pid in RIGHT}
MINI = "01_mini.ipynb"


def notebook(answers: dict, extra_after_setup=(), extra_at_end=(), setup=SETUP):
    """setup, [extra cells], then per problem an answer cell and a check cell, then [extra cells]."""
    cells = [nbformat.v4.new_code_cell(setup)]
    cells += [nbformat.v4.new_code_cell(src) for src in extra_after_setup]
    for pid, src in answers.items():
        if src is None:
            continue
        cells.append(nbformat.v4.new_code_cell(src))
        cells.append(nbformat.v4.new_code_cell(f'check("{pid}", answer)'))
    cells += [nbformat.v4.new_code_cell(src) for src in extra_at_end]
    return nbformat.v4.new_notebook(cells=cells)


def write(nb, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def mini_solutions(folder: Path) -> Path:
    """A solutions folder holding the mini assignment (the grader reads its check() calls)."""
    write(notebook(RIGHT), folder / MINI)
    return folder


def with_cell_after(nb, pid: str, src: str):
    """Insert a code cell right after the check cell of `pid`."""
    i = next(i for i, c in enumerate(nb.cells) if c.source.startswith(f'check("{pid}"'))
    nb.cells.insert(i + 1, nbformat.v4.new_code_cell(src))
    return nb
