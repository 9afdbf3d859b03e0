# One venv, made from pyproject.toml. `make serve` and `make test` both start here.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install serve build test bench system-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[docs,test]'
	touch $@

install: $(STAMP)

serve: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

build: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# Browser checks need Debian's chromium and a CJK font; installed here when run as root.
system-deps:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	  else \
	    echo "browser tests need: sudo apt-get install chromium fonts-noto-cjk" >&2; exit 1; \
	  fi; \
	fi

test: install system-deps
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf site .pytest_cache build *.egg-info
