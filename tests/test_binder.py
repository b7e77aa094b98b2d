"""Binder readiness, checked offline: the files repo2docker reads, and that they agree with pyproject.toml.

repo2docker looks in binder/ or .binder/ first, else the repository root: here environment.yml (conda,
with `pip: -e .` installing the course) and postBuild (the learner workspace). A Binder badge in the
README opens JupyterLab on the start page. The course title is the same in the README and on the start page.
"""
import json
import os
import re
import tomllib
from pathlib import Path

from lecture_lib import lecture

ROOT = Path(__file__).resolve().parents[1]
START = "notebooks/00_start_here.ipynb"


def test_repo2docker_reads_the_root():
    assert (ROOT / "environment.yml").is_file()
    for folder in ("binder", ".binder"):
        assert not (ROOT / folder).exists(), f"{folder}/ would hide the root's environment.yml from repo2docker"
    for other in ("requirements.txt", "Pipfile", "runtime.txt", "apt.txt", "install.R"):
        assert not (ROOT / other).exists(), f"{other} beside environment.yml: say which one repo2docker uses"


def test_environment_yml_has_what_binder_needs():
    text = (ROOT / "environment.yml").read_text()
    deps = re.findall(r"^  - ([A-Za-z0-9_.\-]+)", text, flags=re.M)
    for name in ("jupyterlab", "ipywidgets", "jupytext"):     # the UI, the explorers, the paired .py files
        assert name in deps, f"environment.yml lacks {name}"
    floor = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"python{floor}" in text


def test_postbuild_creates_the_workspace():
    post = ROOT / "postBuild"
    assert post.is_file() and os.access(post, os.X_OK), "postBuild must be executable"
    text = post.read_text()
    assert text.startswith("#!/usr/bin/env bash") and "set -e" in text
    assert re.search(r"^python -m lecture_lib workspace\b", text, flags=re.M)


def test_readme_binder_badge_deep_links_the_start_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"\[!\[Binder\]\(https://mybinder\.org/badge_logo\.svg\)\]\((https://mybinder\.org/v2/gh/[^)]+)\)",
                  readme)
    assert m, "README has no Binder badge"
    assert m.group(1).endswith(f"?urlpath=lab/tree/{START}")
    assert (ROOT / START).is_file()


def test_course_title_is_the_same_in_readme_and_start_page():
    readme_title = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[0]
    nb = json.loads((ROOT / START).read_text(encoding="utf-8"))
    first = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    start_title = "".join(first["source"]).splitlines()[0]
    assert readme_title == start_title == f"# {lecture.COURSE_TITLE}"
