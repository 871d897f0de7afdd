# boardctl: every target sets itself up from a machine with only Python 3.11+.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: test lint typecheck unit sim bench ladder soak fuzz clean deb pi-check messages language

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "installing boardctl and its test tools into $(VENV) ..."
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

# MicroPython (its WebAssembly port, from npm) runs the modules the firmware
# shares with the host in tests/test_micropython.py.
MPY    := tests/micropython/node_modules/.installed-stamp

$(MPY): tests/micropython/package.json
	@if command -v npm >/dev/null 2>&1; then \
		echo "installing MicroPython for the firmware tests ..."; \
		(cd tests/micropython && npm install --silent --no-audit --no-fund) \
		&& touch $(MPY) \
		|| echo "WARNING: npm could not install MicroPython: its tests will be skipped"; \
	else echo "WARNING: npm not found: the MicroPython tests will be skipped"; fi

test: $(STAMP) $(MPY) lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -m "not slow"

sim: $(STAMP)
	$(BIN)/boardctl sim --demo shiftago

bench: $(STAMP)
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# the computer opponent's strength ladder, every level of Shiftago, DuploLine and
# bidiline (about half an hour on two cores; not part of make test)
LADDER_GAMES ?= 40
ladder: $(STAMP)
	$(BIN)/python bench/opponents.py --games $(LADDER_GAMES) --levels

fuzz: $(STAMP)
	$(BIN)/python bench/fuzz_frames.py 1000000
	BOARDCTL_FUZZ=1 $(BIN)/pytest -q tests/test_readers_fuzz.py tests/test_requests_fuzz.py

# the long soak: SOAK_GAMES complete games across every game (SOAK_GAMES=250 make soak for less)
SOAK_GAMES ?= 10000
soak: $(STAMP)
	SOAK_GAMES=$(SOAK_GAMES) $(BIN)/pytest -m slow

# the Debian packages (docs/install.md): build/deb/boardctl_VERSION_ARCH.deb; an
# architecture this machine cannot build for (not root, no debootstrap or
# qemu-user-static) is skipped with a WARNING
DEB_ARCHES ?= amd64 arm64 armhf
deb:
	@for arch in $(DEB_ARCHES); do bash deb/make-deb.sh $$arch || exit 1; done

# the arm64 package installed and used in an arm64 Debian root under qemu (docs/install.md);
# PI_ARCH=armhf checks the armhf package the same way, PI_ARCH=amd64 this machine's
PI_ARCH ?= arm64
pi-check:
	ARCH=$(PI_ARCH) bash deb/pi-check.sh

# the catalogs (docs/languages.md): the texts for people extracted from the code and
# the pages into boardctl/locale/boardctl.pot, each language's .po updated from it;
# translate what is new or marked fuzzy, then make test (tests/test_catalogs.py)
LOCALES := boardctl/locale
KEYWORDS := -k _ -k N_ -k ngettext:1,2 -k M_ -k Mn_:1,2 -k Mp_:1c,2
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) --add-location=file --no-wrap --sort-output \
		--project boardctl --copyright-holder "boardctl's authors" \
		-o $(LOCALES)/boardctl.pot .
	$(BIN)/pybabel update -D boardctl -i $(LOCALES)/boardctl.pot -d $(LOCALES) \
		--no-wrap --ignore-obsolete --no-fuzzy-matching

# a new language's catalog, from the texts of the code: make language CODE=it
language: messages
	@test -n "$(CODE)" || { echo "name the language: make language CODE=it"; exit 1; }
	$(BIN)/pybabel init -D boardctl -i $(LOCALES)/boardctl.pot -d $(LOCALES) -l $(CODE) --no-wrap

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
