# The course's two commands:  make lab  (set up + open JupyterLab)   make test  (set up + whole suite)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab test setup bench html clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed (found " + sys.version.split()[0] + "); run: make PYTHON=python3.11 ...")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# root (containers, some cloud boxes) needs --allow-root; nobody else gets it
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# LAB_ARGS go to jupyter lab as they are, e.g. on a remote machine:
#   make lab LAB_ARGS="--no-browser --port 8899"     (then: ssh -L 8899:localhost:8899 you@host)
# my_work/ gets a copy of each worksheet you do not have yet (never overwritten; git-ignored)
lab: $(STAMP)
	$(PY) -m lecture_lib workspace
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) --LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb --config=$(CURDIR)/jupyter_server_config.py $(LAB_ARGS)

test: $(STAMP)
	MPLBACKEND=Agg $(PY) -m pytest -q -n auto --dist loadscope

bench: $(STAMP)
	MPLBACKEND=Agg $(PY) benchmarks/widget_latency.py

# the course as a static site in site/: every notebook and solution run and rendered (git-ignored)
html: $(STAMP)
	$(PY) -m lecture_lib site --out site

clean:
	rm -rf $(VENV) build *.egg-info site
