"""The course in a real browser: JupyterLab in headless Chromium, used the way a learner uses it.

One JupyterLab server (free loopback port, private settings and workspace folders, a temporary
learner workspace) and one Chromium page serve the whole module. For every notebook in notebooks/
(found by glob, so a new one is covered at once): Run All, wait for the kernel to go idle, then

- no error output and nothing on stderr,
- every widget rendered: no "Error displaying widget", no widget left as its raw text repr,
- every explorer's image loaded, shown at its own pixel size (not stretched), its message line no
  wider than its figure, and its figure replaced when a control is moved with the keyboard and when
  one is moved with the mouse,
- no Markdown (cells or outputs) with a stray `$`-math artifact: prose typeset as math (a dollar
  amount between two `$`) or TeX left unrendered.

Then a worksheet from the learner workspace: one problem answered wrong (one clean message box, no
traceback, no answer given away), then right.

Needs Playwright for Python and Debian's chromium (`apt-get install chromium`): without them the
module is skipped with the reason, except under CI=true, where a missing browser is a failure.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from browser_helpers import (CONTROLS, EXPLORER, ROOT, browser_missing, cell_outputs, chromium, click_mouse,
                             close_all, explorer_controls, instrument, lab_server, n_images, open_lab,
                             open_notebook, press_key, run_all, run_cell, wait_new_image)

_missing = browser_missing()
if _missing:
    if os.environ.get("CI", "").lower() == "true":
        raise RuntimeError(f"CI=true but the browser tests cannot run: {_missing}")
    pytest.skip(f"browser tests skipped: {_missing}", allow_module_level=True)

NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))

# everything the page can report about a notebook after Run All, in one round trip
_SCAN = r"""() => {
    const nb = window.jupyterapp.shell.currentWidget.content.node;
    const text = (sel) => [...nb.querySelectorAll(sel)].map(e => e.innerText.slice(0, 300));
    // JupyterLab shows error outputs (tracebacks) and stderr streams alike, as application/vnd.jupyter.stderr
    const errors = text('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"],' +
                        '.jp-OutputArea-output [data-mime-type="application/vnd.jupyter.stderr"]');
    const outputs = [...nb.querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText);
    const widgetErrors = outputs.filter(t => /Error displaying widget|Loading widget\.\.\./.test(t));
    const plain = [...nb.querySelectorAll('.jp-OutputArea-output [data-mime-type="text/plain"], ' +
                                          '.jp-OutputArea-output[data-mime-type="text/plain"]')]
        .map(e => e.innerText).filter(t => RAW_WIDGET.test(t));
    return {errors, widgetErrors, rawWidgets: plain,
            math: mathArtifacts(nb), explorers: nb.querySelectorAll(EXPLORER).length};
}"""

# prose typeset as math: three or more single lower-case letters in a row in one formula ("per hour"
# between two dollar signs); TeX left as text: a `$` next to a backslash command, ^{ or _{
_MATH_CHECK = r"""
const RAW_WIDGET = /^\s*(VBox|HBox|Box|GridBox|Image|HTML|Label|Output|Button|Dropdown|Tab|Accordion|\w+Slider|\w+Text)\(/;
function mathArtifacts(root) {
    const found = [];
    for (const m of root.querySelectorAll('.jp-RenderedMarkdown mjx-container, .jp-RenderedHTMLCommon mjx-container')) {
        const math = m.querySelector('mjx-assistive-mml math');
        if (!math) continue;
        for (const parent of [math, ...math.querySelectorAll('*')]) {
            let run = 0, letters = '';
            for (const child of parent.children) {
                const t = child.textContent;
                if (child.tagName.toLowerCase() === 'mi' && /^[a-z]$/.test(t) && !child.getAttribute('mathvariant')) {
                    run += 1; letters += t;
                    if (run >= 3) { found.push('prose typeset as math: "' + math.textContent.slice(0, 80) + '"'); break; }
                } else { run = 0; letters = ''; }
            }
        }
    }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || !el.closest('.jp-RenderedMarkdown, .jp-RenderedHTMLCommon') || el.closest('code, pre, mjx-container')) continue;
        if (/\$[^$]*(\\[a-zA-Z]+|\^\{|_\{)[^$]*\$/.test(n.textContent))
            found.push('unrendered TeX: "' + n.textContent.slice(0, 80) + '"');
    }
    // the same over whole blocks: prose.say puts each `$` in its own <span>, so TeX that say() escaped
    // ("$N_\text{total}$" in a say without math=True) is split over several text nodes
    for (const block of root.querySelectorAll(':is(.jp-RenderedMarkdown, .jp-RenderedHTMLCommon) :is(p, li, td, th, h1, h2, h3, h4)')) {
        const copy = block.cloneNode(true);
        copy.querySelectorAll('code, pre, mjx-container, p, li, ul, ol, table').forEach(e => e.remove());
        const t = copy.textContent;
        if (/\$[^$]*(\\[a-zA-Z]+|\^\{|_\{)[^$]*\$/.test(t)) found.push('unrendered TeX: "' + t.slice(0, 80) + '"');
    }
    return [...new Set(found)];
}
"""


def _scan(page) -> dict:
    js = _SCAN.replace("EXPLORER", json.dumps(EXPLORER))
    return page.evaluate("(() => {" + _MATH_CHECK + "return (" + js + ")(); })")


@pytest.fixture(scope="module")
def lab():
    with lab_server() as server:
        yield server


@pytest.fixture(scope="module")
def page(lab):
    with chromium() as browser:
        pg = open_lab(browser, lab)
        yield pg


def _check_explorer(page, ex, where: str) -> list[str]:
    """Problems with one explorer box (empty list: it works with keyboard and mouse)."""
    problems = []
    ex.scroll_into_view_if_needed()
    look = ex.evaluate("""(box) => {
        const img = box.querySelector(':scope > img.widget-image');
        // the message line's text (an empty line is 0 wide; the HTML widget itself spans the cell)
        let msg = 0;
        for (const m of box.querySelectorAll(':scope > .widget-html .widget-html-content')) {
            if (!m.textContent.trim() || m.querySelector('b')) continue;      // the title is bold
            const r = document.createRange(); r.selectNodeContents(m);
            msg = Math.max(msg, r.getBoundingClientRect().width);
        }
        return {natural: img.naturalWidth, shown: img.getBoundingClientRect().width, dpr: window.devicePixelRatio,
                complete: img.complete, msg};
    }""")
    if not (look["complete"] and look["natural"] > 0):
        problems.append(f"{where}: its figure did not load")
    elif abs(look["natural"] - look["shown"] * look["dpr"]) > 1.5:
        problems.append(f"{where}: figure {look['natural']} px wide shown at {look['shown']:.0f} CSS px × "
                        f"{look['dpr']} (stretched or squeezed)")
    if look["msg"] > look["shown"] + 2:
        problems.append(f"{where}: message line ({look['msg']:.0f} px) wider than the figure ({look['shown']:.0f} px)")
    controls = explorer_controls(ex)
    if not controls:
        return problems + [f"{where}: no controls found"]
    sliders = [c for c in controls if c["kind"] == "slider"]
    for how, move, control in (("keyboard", press_key, controls[0]),
                               ("mouse", click_mouse, (sliders or controls)[-1])):
        before = ex.locator(":scope > img.widget-image").get_attribute("src")
        n = n_images(page)
        move(page, ex, control)
        try:
            rec = wait_new_image(page, n, timeout_s=30)
        except Exception:      # noqa: BLE001 - playwright's TimeoutError; reported as a finding
            problems.append(f"{where}: moving control {control['index']} ({control['kind']}) with the "
                            f"{how} gave no new figure within 30 s")
            continue
        if rec["src"] == before:
            problems.append(f"{where}: {how}: the figure did not change")
    return problems


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_in_browser(page, name):
    close_all(page)
    open_notebook(page, f"notebooks/{name}")
    instrument(page)
    run_all(page)
    found = _scan(page)
    assert not found["errors"], f"{name}: error or stderr output:\n" + "\n---\n".join(found["errors"])
    assert not found["widgetErrors"], f"{name}: widgets not rendered: {found['widgetErrors']}"
    assert not found["rawWidgets"], f"{name}: a widget shown as its text repr: {found['rawWidgets']}"
    assert not found["math"], f"{name}: $-math artifacts in Markdown: {found['math']}"
    problems = []
    explorers = page.locator(EXPLORER)
    for i in range(explorers.count()):
        problems += _check_explorer(page, explorers.nth(i), f"{name} explorer {i + 1}")
    assert not problems, "\n".join(problems)


def test_math_artifact_check_can_fail(page):
    """The `$` check catches JupyterLab's own trap (two `\\$` amounts typeset as math) and passes
    prose.say's escape. Cells are added to the open notebook, which is never saved."""
    from lecture_lib.prose import escape_dollars
    sources = [r"It costs \$2 per hour and \$3 per day, and $B^2$ is math.",
               escape_dollars("It costs $2 per hour and $3 per day") + ", and $B^2$ is math.",
               escape_dollars(r"It reads all of $N_\text{total}$") + ", and $B^2$ is math."]
    flagged = []
    for src in sources:
        page.evaluate("""(src) => window.jupyterapp.shell.currentWidget.content.model.sharedModel
                         .insertCell(0, {cell_type: 'markdown', source: src})""", src)
        run_cell(page, 0)
        page.wait_for_function("""() => window.jupyterapp.shell.currentWidget.content.widgets[0]
                                  .node.querySelector('mjx-container')""")
        flagged.append(page.evaluate("(() => {" + _MATH_CHECK + """
            return mathArtifacts(window.jupyterapp.shell.currentWidget.content.widgets[0].node); })()"""))
    assert flagged[0], "two dollar amounts typeset as math went unnoticed"
    assert not flagged[1], flagged[1]
    assert flagged[2], "TeX escaped by prose.say (shown as text between two dollar signs) went unnoticed"


def _worksheet() -> tuple[str, int, int]:
    """A workspace worksheet with the drain-time problem: (file name, index of its answer cell, of its
    question's setup cell)."""
    for path in sorted((ROOT / "exercises").glob("02_*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        src = ["".join(c["source"]) for c in cells]
        for i, s in enumerate(src):
            if 'check("02.drain_ms"' in s:
                setup = max(j for j in range(i) if "GIVEN.drain_hw" in src[j])
                return path.name, i - 1, setup
    pytest.fail("no worksheet with problem 02.drain_ms in exercises/")


def _repo_tries():
    path = ROOT / "my_work" / ".check_tries.json"
    return path.stat().st_mtime_ns if path.exists() else None


def test_worksheet_wrong_then_right(page, lab):
    name, answer_cell, setup_cell = _worksheet()
    repo_tries_before = _repo_tries()
    assert (lab.root / "my_work" / name).exists(), "the temporary workspace lacks the worksheet"
    close_all(page)
    open_notebook(page, f"my_work/{name}")
    first_code = page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
                                      .findIndex(c => c.model.type === 'code')""")
    run_cell(page, first_code)
    run_cell(page, setup_cell)
    # wrong: the drain time in seconds where the question asks for ms
    run_cell(page, answer_cell, "answer = gb300.hbm_capacity / gb300.hbm_bandwidth  # in s")
    run_cell(page, answer_cell + 1)
    outs = cell_outputs(page, answer_cell + 1)
    assert len(outs) == 1, f"a wrong answer should show one message box, got {outs}"
    msg = outs[0]["text"]
    assert outs[0]["mime"] == "application/vnd.jupyter.stderr", outs      # how JupyterLab shows an error
    assert "Traceback" not in msg and "check.py" not in msg, f"a traceback leaked into the message: {msg}"
    assert "02.drain_ms" in msg and "1,000" in msg, f"the message does not point at the unit slip: {msg}"
    from lecture_lib.practice.problems import get
    expected = get("02.drain_ms").expected()
    assert f"{expected:.3g}" not in msg, f"the message gives the answer away: {msg}"
    # right
    run_cell(page, answer_cell, "answer = gb300.hbm_capacity / gb300.hbm_bandwidth / MS")
    run_cell(page, answer_cell + 1)
    outs = cell_outputs(page, answer_cell + 1)
    assert len(outs) == 1 and "✓" in outs[0]["text"] and "correct" in outs[0]["text"], outs
    assert (lab.root / "my_work" / ".check_tries.json").exists(), "the workspace did not remember the tries"
    assert _repo_tries() == repo_tries_before, "the repository's my_work/ was written to"
