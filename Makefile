# Every target creates .venv and installs the project (editable, with its test tools) when missing,
# so `make play` and `make test` work on a fresh clone with nothing but Python and pip.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
YAML_LS := .tools/yaml-language-server
YAML_LS_VERSION := 1.25.0

.PHONY: play test lint browser bench mutate schema docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev,net]'
	touch $(STAMP)

# Ctrl-C stops the game with its save in place (exit 130): that is no error of make's. The lines it
# prints name `kalooki`, which is on the PATH only once the venv is active: said when it is not.
play: $(STAMP)
	@echo "$(BIN)/kalooki play $(ARGS)"
	@trap : INT; $(BIN)/kalooki play $(ARGS); status=$$?; \
	if [ $$status -eq 130 ]; then status=0; fi; \
	if [ $$status -eq 0 ] && ! command -v kalooki >/dev/null 2>&1; then \
		echo "kalooki is in $(VENV); to have it on your PATH for kalooki resume and the rest:"; \
		echo "    . $(CURDIR)/$(BIN)/activate"; \
	fi; \
	exit $$status

# The suite runs on TEST_WORKERS processes (pytest-xdist; auto: one a core); TEST_WORKERS=0 runs it in
# this process, as a debugger wants.
TEST_WORKERS ?= auto
test: $(STAMP) lint browser $(YAML_LS)/.installed
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The editor tests drive the real YAML language server; without Node.js they are skipped (not in CI).
$(YAML_LS)/.installed:
	@if command -v npm >/dev/null 2>&1; then \
		npm install --silent --no-audit --no-fund --prefix $(YAML_LS) yaml-language-server@$(YAML_LS_VERSION) \
		&& touch $@; \
	else \
		echo "npm not found: the editor tests (yaml-language-server) will be skipped"; \
	fi

# The report test opens the HTML in Debian's Chromium, driven by Playwright (whose own browser
# download is not used): installed here when missing and we are root; elsewhere the test skips.
browser:
	@if ! command -v chromium >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
		else \
			echo "chromium is missing and cannot be installed here (not root): the browser test will skip"; \
		fi; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check kalooki cli net tests bench mutate
	$(BIN)/ruff format --check kalooki cli net tests bench mutate
	$(BIN)/mypy kalooki cli net

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

# The knob reference in docs/variants.md is generated from the variant model.
docs: $(STAMP)
	$(BIN)/python -m kalooki.rulebook --write-readme docs/variants.md

clean:
	rm -rf $(VENV) .tools build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
