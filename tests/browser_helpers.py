"""JupyterLab in headless Chromium: what tests/test_browser.py and benchmarks/browser_latency.py share.

    with lab_server() as lab, chromium() as browser:
        page = open_lab(browser, lab)
        open_notebook(page, "notebooks/01_roofline_and_batching.ipynb")
        run_all(page)                              # Run All, then wait until the kernel is idle
        explorers = page.locator(EXPLORER)         # every explorer's box in the outputs

The server runs on a free loopback port with a random token, from a temporary root folder that holds
`notebooks/` (a link to the course's folder) and a temporary `my_work/` (the learner workspace, filled
from exercises/ by lecture_lib's own workspace code: never the repository's my_work/). Its settings and
workspace folders are private and temporary too; autosave is off, so running a notebook in the browser
never writes outputs into the repository's files.

The browser is Debian's `chromium` (/usr/bin/chromium), driven by Playwright for Python; Playwright's
own browser download does not work offline. `browser_missing()` says why none can be used, or "".
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("LECTURE_LIB_CHROMIUM", "/usr/bin/chromium")
# the flags that keep Chromium quiet on a machine with no network (see .ci/run)
CHROMIUM_ARGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]

#: an explorer's box: a widget VBox whose direct children include the figure (an Image widget)
EXPLORER = ".widget-vbox:has(> img.widget-image)"
#: its controls, in order: dropdowns and sliders (selection, range and float sliders)
CONTROLS = ".widget-dropdown, .widget-slider"

# JupyterLab settings for a test run: no autosave (the notebooks are the repository's), every cell in the
# DOM (no windowing), no news or update checks (no network)
_SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"checkForUpdates": False,
                                                                        "fetchNews": "false"},
}


def browser_missing() -> str:
    """'' when Playwright and Chromium are usable, else why not (one line)."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set LECTURE_LIB_CHROMIUM)"
    return ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A running JupyterLab: `url(path)` gives an address with the token; `root` its temporary root."""

    def __init__(self, base: str, token: str, root: Path, proc: subprocess.Popen):
        self.base, self.token, self.root, self.proc = base, token, root, proc

    def url(self, path: str = "lab") -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base}/{path.lstrip('/')}{sep}token={self.token}"


@contextlib.contextmanager
def lab_server(workspace: bool = True, timeout: float = 90):
    """Start JupyterLab on a free loopback port with private, temporary folders; yield a Lab."""
    tmp = Path(tempfile.mkdtemp(prefix="lab-browser-"))
    try:
        root = tmp / "root"
        root.mkdir()
        (root / "notebooks").symlink_to(ROOT / "notebooks", target_is_directory=True)
        if workspace:
            from lecture_lib.practice.workspace import ensure_workspace
            ensure_workspace(root=ROOT, dest=root / "my_work")
        settings = tmp / "settings"
        for rel, value in _SETTINGS.items():
            path = settings / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        port, token = free_port(), secrets.token_hex(16)
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}   # kernels draw inline figures
        env.update(JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
                   IPYTHONDIR=str(tmp / "ipython"))
        cmd = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
               "--LabApp.expose_app_in_browser=True", "--ServerApp.open_browser=False"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        log = open(tmp / "server.log", "wb")
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        lab = Lab(f"http://127.0.0.1:{port}", token, root, proc)
        try:
            deadline = time.time() + timeout
            while True:
                try:
                    with urllib.request.urlopen(lab.url("api/status"), timeout=5):
                        break
                except OSError:
                    if proc.poll() is not None or time.time() > deadline:
                        raise RuntimeError("JupyterLab did not start:\n" +
                                           (tmp / "server.log").read_text(errors="replace")[-3000:])
                    time.sleep(0.3)
            yield lab
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def chromium():
    """Headless Debian Chromium under Playwright (a fresh profile each time); yields the Browser."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def open_lab(browser, lab: Lab, width: int = 1400, height: int = 1000, scale: float = 1):
    """A new page with JupyterLab loaded and its app ready (window.jupyterapp)."""
    page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=scale)
    page.set_default_timeout(60_000)
    page.goto(lab.url("lab"))
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.started !== undefined")
    page.evaluate("() => window.jupyterapp.started")
    page.wait_for_selector("#jp-main-dock-panel")
    return page


def open_notebook(page, path: str) -> None:
    """Open `path` (relative to the server root) as the current notebook and wait for its kernel."""
    page.evaluate("""async (path) => {
        const app = window.jupyterapp;
        await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
        let w = app.shell.currentWidget;
        await w.context.ready;
        await w.sessionContext.ready;
    }""", path)
    page.wait_for_function("""() => {
        const w = window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
        return k && k.status === 'idle';
    }""", timeout=60_000)


def run_all(page, timeout_s: float = 240) -> None:
    """Run All Cells in the current notebook; return when every cell has run and the kernel is idle."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    wait_idle(page, timeout_s)


def wait_idle(page, timeout_s: float = 120) -> None:
    """Wait until the current notebook's kernel is idle and no cell is queued or running ([*])."""
    page.wait_for_function("""() => {
        const w = window.jupyterapp.shell.currentWidget;
        const k = w.sessionContext.session && w.sessionContext.session.kernel;
        if (!k || k.status !== 'idle') return false;
        for (const p of w.node.querySelectorAll('.jp-InputPrompt'))
            if (p.textContent.includes('*')) return false;
        return true;
    }""", timeout=timeout_s * 1000, polling=250)


def run_cell(page, index: int, source: str | None = None, timeout_s: float = 60) -> None:
    """Set cell `index`'s source (if given), select it and run it; wait until idle."""
    page.evaluate("""([i, src]) => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        if (src !== null) nb.model.cells.get(i).sharedModel.setSource(src);
        nb.activeCellIndex = i;
        nb.deselectAll();
        return window.jupyterapp.commands.execute('notebook:run-cell');
    }""", [index, source])
    wait_idle(page, timeout_s)


def cell_outputs(page, index: int) -> list[dict]:
    """Cell `index`'s rendered outputs: [{"mime": data-mime-type, "text": innerText}, ...]."""
    return page.evaluate("""(i) => {
        const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
        return [...cell.node.querySelectorAll('.jp-OutputArea-output')].map(o => {
            const r = o.querySelector('[data-mime-type]') || o;
            return {mime: r.getAttribute('data-mime-type') || '', text: o.innerText};
        });
    }""", index)


def close_all(page) -> None:
    """Close every open document without saving and shut its kernel down (the next notebook starts clean)."""
    page.evaluate("""async () => {
        const app = window.jupyterapp;
        for (const w of [...app.shell.widgets('main')]) {
            if (w.sessionContext) { try { await w.sessionContext.shutdown(); } catch (e) {} }
            if (w.context) w.context.model.dirty = false;
            w.dispose();
        }
    }""")


# --- explorers: move a control, time the input event -> new image on screen -------------------------
_INSTRUMENT = """() => {
    if (window.__lat) return;
    const lat = window.__lat = {t0: null, samples: []};
    const mark = () => { lat.t0 = performance.now(); };
    document.addEventListener('keydown', mark, true);
    document.addEventListener('pointerdown', mark, true);
    // a new figure: the Image widget's <img> gets a new src (a blob URL), loads, then the next frame paints it
    document.addEventListener('load', (e) => {
        const img = e.target;
        if (!(img instanceof HTMLImageElement) || !img.classList.contains('widget-image')) return;
        const t0 = lat.t0;
        requestAnimationFrame(() => {
            lat.samples.push({src: img.src, ms: t0 === null ? null : performance.now() - t0,
                              natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
                              dpr: window.devicePixelRatio});
        });
    }, true);
}"""


def instrument(page) -> None:
    """Record, for every explorer image that loads, the time since the last key or pointer press."""
    page.evaluate(_INSTRUMENT)


def explorer_controls(explorer) -> list[dict]:
    """The controls of one explorer box: [{"kind": "select"|"slider", "index": i}, ...] in order."""
    return explorer.evaluate("""(box) => {
        const out = [];
        box.querySelectorAll('.widget-dropdown, .widget-slider').forEach((w, i) => {
            if (w.querySelector('select')) out.push({kind: 'select', index: i});
            else if (w.querySelector('.noUi-handle')) out.push({kind: 'slider', index: i});
        });
        return out;
    }""")


def _control(explorer, index: int):
    return explorer.locator(CONTROLS).nth(index)


def press_key(page, explorer, control: dict, forward: bool | None = None) -> None:
    """Move a control one step with the keyboard (a select: Space, arrow down/up, Enter; a slider: arrow
    right/left). `forward` is a preference: at either end the control moves the only way it can."""
    w = _control(explorer, control["index"])
    if control["kind"] == "select":
        sel = w.locator("select")
        at_start, at_end = sel.evaluate("s => [s.selectedIndex <= 0, s.selectedIndex >= s.options.length - 1]")
        back = at_end if forward is None else (at_end or (not forward and not at_start))
        sel.focus()        # Space opens it, an arrow picks, Enter confirms (a bare arrow key is taken by
        page.keyboard.press(" ")       # JupyterLab's command mode: it moves to the next cell instead)
        page.keyboard.press("ArrowUp" if back else "ArrowDown")
        page.keyboard.press("Enter")
    else:
        handle = w.locator(".noUi-handle").first
        now, low, top = (float(handle.get_attribute(a) or 0)
                         for a in ("aria-valuenow", "aria-valuemin", "aria-valuemax"))
        back = now >= top if forward is None else (now >= top or (not forward and now > low))
        handle.focus()
        page.keyboard.press("ArrowLeft" if back else "ArrowRight")


def click_mouse(page, explorer, control: dict) -> None:
    """Move a control with the mouse: drag a slider's (first) handle a quarter of the track; open a
    select with a click and pick the next option (Enter)."""
    w = _control(explorer, control["index"])
    if control["kind"] == "select":
        sel = w.locator("select")
        at_end = sel.evaluate("s => s.selectedIndex >= s.options.length - 1")
        sel.click()
        page.keyboard.press("ArrowUp" if at_end else "ArrowDown")
        page.keyboard.press("Enter")
        return
    track = w.locator(".noUi-target").first.bounding_box()
    handle = w.locator(".noUi-handle").first.bounding_box()
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    frac = (x - track["x"]) / track["width"]
    to = x + (-0.25 if frac > 0.5 else 0.25) * track["width"]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + to) / 2, y)
    page.mouse.move(to, y)
    page.mouse.up()


def wait_new_image(page, n_before: int, timeout_s: float = 20) -> dict:
    """Wait for the next explorer image load after `n_before` recorded ones; return its record."""
    page.wait_for_function("(n) => window.__lat.samples.length > n", arg=n_before,
                           timeout=timeout_s * 1000, polling="raf")
    return page.evaluate("(n) => window.__lat.samples[n]", n_before)


def n_images(page) -> int:
    return page.evaluate("() => window.__lat.samples.length")
