"""Suite-wide pytest setting (make test): each lecture notebook runs once.

tests/test_browser.py opens every notebooks/*.ipynb in a real JupyterLab, runs all its cells and fails on
any error output, failed assert included. When that test is part of the run and can run (Playwright and
Chromium present; under CI=true their absence is itself a failure), nbval does not execute the same
notebooks a second time. A notebook named on the command line always runs under nbval, and solutions/
always do.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def _browser_runs_the_notebooks(config) -> bool:
    args = [Path(a.split("::")[0]).resolve() for a in config.args] or [ROOT]
    selected = any(a in (ROOT, ROOT / "tests", ROOT / "tests" / "test_browser.py") for a in args)
    if not selected:
        return False
    if os.environ.get("CI") == "true":
        return True
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from browser_helpers import browser_missing
    finally:
        sys.path.pop(0)
    return browser_missing() == ""


def pytest_ignore_collect(collection_path, config):
    path = Path(collection_path).resolve()
    if path.suffix != ".ipynb" or path.parent != ROOT / "notebooks":
        return None
    if any(Path(a.split("::")[0]).resolve() == path for a in config.args):
        return None                      # asked for by name: run it under nbval
    if not hasattr(config, "_lecture_browser_runs"):
        config._lecture_browser_runs = _browser_runs_the_notebooks(config)
    return True if config._lecture_browser_runs else None
