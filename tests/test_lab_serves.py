"""`make lab` starts JupyterLab on the course's start page, with the whole repository browsable."""
import json
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _lab_command() -> list[str]:
    out = subprocess.run(["make", "-n", "-s", "lab"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    line = [ln for ln in out.splitlines() if "jupyter lab" in ln][-1]
    cmd = shlex.split(line)
    cmd[0] = str(Path(sys.executable).parent / "jupyter")    # the jupyter of this environment
    return cmd


def test_make_lab_serves_the_start_page():
    cmd = _lab_command()
    assert any(a.endswith("/lab/tree/notebooks/00_start_here.ipynb") for a in cmd), cmd
    port = _free_port()
    proc = subprocess.Popen(cmd + ["--no-browser", f"--ServerApp.port={port}", "--ServerApp.token=",
                                   "--ServerApp.port_retries=0"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/contents/notebooks/00_start_here.ipynb?content=0", timeout=5) as r:
                    info = json.load(r)
                break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    pytest.fail("JupyterLab did not start within 60 s")
                time.sleep(0.5)
        assert info["type"] == "notebook" and info["path"] == "notebooks/00_start_here.ipynb"
        with urllib.request.urlopen(f"{base}/", timeout=10) as r:          # "/" lands on the start page
            assert r.url.endswith("/lab/tree/notebooks/00_start_here.ipynb")
            assert b"JupyterLab" in r.read()
        with urllib.request.urlopen(f"{base}/api/contents/exercises?content=1", timeout=10) as r:
            assert any(c["name"].endswith(".ipynb") for c in json.load(r)["content"])
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
