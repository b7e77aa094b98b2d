"""Notebooks built by tools/ are committed; the committed copies must be exactly what the scripts build."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = [  # script, the committed notebooks it writes, how it takes an output location
    ("make_notebooks_00_01.py", ["notebooks/00_start_here.ipynb", "notebooks/01_roofline_and_batching.ipynb"], "dir"),
    ("make_notebook_02.py", ["notebooks/02_balance_batch.ipynb"], "file"),
    ("make_solutions_02.py", ["solutions/02_balance_batch.ipynb"], "file"),
]


@pytest.mark.parametrize("script,targets,mode", CASES, ids=[c[0] for c in CASES])
def test_committed_notebook_matches_its_generator(tmp_path, script, targets, mode):
    out = tmp_path if mode == "dir" else tmp_path / Path(targets[0]).name
    subprocess.run([sys.executable, str(ROOT / "tools" / script), str(out)], cwd=tmp_path, check=True,
                   capture_output=True, env={**os.environ, "MPLBACKEND": "Agg"})
    for target in targets:
        built = (tmp_path / Path(target).name).read_text(encoding="utf-8")
        assert built == (ROOT / target).read_text(encoding="utf-8"), \
            f"{target} differs from what tools/{script} builds: edit the script and re-run it"
