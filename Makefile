# Every target creates .venv and installs the project (editable, with its test tools) when missing,
# so `make play` and `make test` work on a fresh clone with nothing but Python and pip.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint bench mutate schema docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/kalooki play $(ARGS)

test: $(STAMP) lint
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check kalooki cli tests bench mutate
	$(BIN)/ruff format --check kalooki cli tests bench mutate
	$(BIN)/mypy kalooki cli

# OpenSpiel is optional: without it the bench skips the gin rummy comparison.
$(VENV)/.bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]' || echo "open-spiel did not install: the OpenSpiel comparison will be skipped"
	touch $(VENV)/.bench

bench: $(VENV)/.bench
	$(BIN)/python -m bench $(ARGS)

# Mutation testing of the rule modules (docs/mutation.md); not part of `make test`. ARGS="melds -j 2".
$(VENV)/.mutate: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutate]'
	touch $(VENV)/.mutate

mutate: $(VENV)/.mutate
	nice -n 10 $(BIN)/python -m mutate $(ARGS)

schema: $(STAMP)
	$(BIN)/kalooki schema --write

# The README's knob reference is generated from the variant model.
docs: $(STAMP)
	$(BIN)/python -m kalooki.rulebook --write-readme README.md

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
