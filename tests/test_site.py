"""`make html`: the course as a static site. The suite builds a part of it (the pages of chapter 08,
notebook and solution, and the index: a full build runs every notebook again, minutes) and checks
that every internal link and image resolves and nothing is fetched from the network; `make html`
builds and checks the whole site the same way (`python -m lecture_lib site --check`)."""
from __future__ import annotations

import os
import re

import pytest

from lecture_lib import lecture, site

PART = "08"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    failed = {}
    pages = site.build(out, only=[PART], log=lambda *_: None, failed=failed)
    assert not failed, f"notebooks raised errors while the site was built: {failed}"
    return out, pages


def test_partial_build_has_its_pages_and_index(built):
    out, pages = built
    names = {p.as_posix() for p in pages}
    assert any(n.startswith(f"notebooks/{PART}") for n in names), names
    assert any(n.startswith(f"solutions/{PART}") for n in names), names
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f"<h1>{lecture.COURSE_TITLE}</h1>" in index
    for c in lecture.CHAPTERS:          # the chapter list with video timestamps
        assert lecture.timestamp(c.start_s) in index and lecture.video_url(c.start_s) in index
    for p in names:
        assert f'href="{p}"' in index, f"the index does not link {p}"


def test_every_link_and_image_resolves(built):
    out, _ = built
    planned = {site.page_path(p) for p in site.sources()}
    assert site.check(out, planned) == []


def test_check_finds_a_broken_link(tmp_path):
    (tmp_path / "index.html").write_text('<a href="notebooks/nope.html">x</a><img src="fig.png">'
                                         '<script src="https://cdn.example/x.js"></script>')
    broken = site.check(tmp_path)
    assert len(broken) == 3, broken
    assert any("notebooks/nope.html" in b and "does not exist" in b for b in broken), broken
    assert any("<img> fig.png" in b and "does not exist" in b for b in broken), broken
    assert any("loads https://cdn.example/x.js from the network" in b for b in broken), broken
    (tmp_path / "fig.png").write_bytes(b"")                    # the image now exists: one break fewer
    assert len(site.check(tmp_path)) == 2


def test_pages_show_figures_and_the_explorers_first_figure(built):
    out, pages = built
    page = next(p for p in pages if p.as_posix().startswith("notebooks/"))
    text = (out / page).read_text(encoding="utf-8")
    src = (site.ROOT / page).with_suffix(".ipynb").read_text(encoding="utf-8")
    n_explorers = src.count("explorers.get(")
    assert n_explorers >= 1, "the partial build should cover an explorer"
    assert text.count("data:image/png;base64") >= n_explorers + 1, "figures (and explorers' PNGs) missing"
    assert "An interactive widget" not in text, "an explorer shows a note instead of its figure"
    assert not re.search(r"\b(VBox|HBox)\(children=", text), "a widget shown as its text repr"
    assert not re.search(r'href="[^"]*\.ipynb', text), "a link still points at a notebook"


def test_two_pages_in_a_browser(built, tmp_path):
    """The index and a notebook page in Chromium: every image loads (figures included, offline)."""
    from browser_helpers import browser_missing, chromium
    missing = browser_missing()
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but no browser: {missing}")
        pytest.skip(missing)
    out, pages = built
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        for rel in ("index.html", next(p for p in pages if p.as_posix().startswith("notebooks/")).as_posix()):
            page.goto((out / rel).as_uri())
            page.wait_for_load_state("load")
            imgs = page.evaluate("() => [...document.images].map(i => [i.complete && i.naturalWidth > 0, i.src.slice(0, 40)])")
            assert all(ok for ok, _ in imgs), f"{rel}: images that did not load: {[s for ok, s in imgs if not ok]}"
            if rel != "index.html":
                assert len(imgs) >= 2
            assert page.title()
            page.screenshot(path=str(tmp_path / (rel.replace("/", "_") + ".png")), full_page=False)
