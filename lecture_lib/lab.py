"""What `make lab` adds to JupyterLab: the course's lecture notebooks are saved without outputs.

A learner who runs notebooks/01_... in JupyterLab gets every output on screen, but the file on disk (a
tracked file, paired with its .py) stays as committed: outputs and execution counts are dropped on save.
Teachers editing a lecture notebook get the same: notebooks are committed without outputs. Worksheets
in my_work/ (the learner's own copies) and exercises/ keep their outputs.

Wired up by jupyter_server_config.py at the repository root, which `make lab` passes with --config.
"""
from __future__ import annotations

#: folders (relative to the server's root) whose notebooks are saved without outputs
LECTURE_FOLDERS = ("notebooks/", "solutions/")


def strip_lecture_outputs(model: dict, path: str, **kwargs) -> None:
    """ContentsManager pre-save hook: clear outputs and execution counts of a lecture notebook, in place."""
    if model.get("type") != "notebook" or not path.lstrip("/").startswith(LECTURE_FOLDERS):
        return
    for cell in model.get("content", {}).get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
