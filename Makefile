# cribboard: one entry point for users, developers and CI.
# `make test` creates .venv on first use, then runs every check.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
MPY    := $(BIN)/micropython
# Three layers, each installed on first use: the simulator's few packages (`make sim`), the laptop
# tools (`crib`, deploy, hardware), and the developer tools (`make test`: linters, pyright with Node).
SIM_STAMP   := $(VENV)/.installed-sim
TOOLS_STAMP := $(VENV)/.installed-tools
STAMP       := $(VENV)/.installed

.PHONY: help venv crib test test-host test-mp lint typecheck verify bench crib-tables bench-device test-device sim deploy \
	hardware hardware-recheck clean

help:
	@echo "make sim        run the board firmware in the terminal simulator"
	@echo "make crib       install the laptop tools: .venv/bin/crib (score, sync, history, deploy)"
	@echo "make test       create .venv and run every test (CPython + MicroPython, lint, types)"
	@echo "make verify     score all 12,994,800 hands against the published distribution"
	@echo "make bench      speed and memory benchmarks"
	@echo "make crib-tables  rebuild the discard advice's crib tables (numpy, a few minutes) and compare"
	@echo "make test-device  smoke test on the emulated Pico (../shared/rp2emu, Node.js 18+)"
	@echo "make bench-device the device-time figures on the emulated Pico, beside the unix port's"
	@echo "make deploy     compile and copy the firmware to a Pico (mpremote)"
	@echo "make hardware   maker's documents, schematic, circuit boards (KiCad), DRC, fab files: out/hardware"
	@echo "make hardware-recheck  route the boards again from scratch: hardware/boards/ must be what comes out"

venv: $(STAMP)

# The laptop tools without the developer ones: .venv/bin/crib (the README's commands after make sim).
crib: $(TOOLS_STAMP)

# What each layer installs is pyproject.toml's (its dependency groups, and crib with its dependencies);
# every version is constraints.txt's. pip 25.1 or newer installs a group (--group).
PIP := $(BIN)/python -m pip install -q -c constraints.txt

$(SIM_STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) --group sim
	touch $@

# setuptools says at every editable install of packages mapped from other folders (package-dir) that a
# folder of the same name could shadow them: information, not a problem (crib and cribbage live under
# host_tools/ and firmware/), and a clean install prints only what failed.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

$(TOOLS_STAMP): $(SIM_STAMP)
	$(EDITABLE) $(PIP) --group deploy --group hardware -e ".[postgres]"
	touch $@

$(STAMP): $(TOOLS_STAMP)
	$(PIP) --group dev
	$(PIP) --no-deps --upgrade --target $(VENV)/mpy-stubs --group stubs
	touch $@

test: $(STAMP) test-host test-mp lint typecheck

# pytest exits 5 when it collects no test: here that is a broken checkout, not a pass, so say so.
test-host: $(STAMP)
	$(BIN)/python -m pytest || { rc=$$?; [ $$rc -ne 5 ] || echo "pytest collected no tests: failing on purpose"; exit $$rc; }

# test_*_mp.py files measure heaps and interned names: each file in a fresh interpreter, as on a board, not after
# the hundreds of modules the shared tests leave interned and fragmented.
test-mp: $(STAMP)
	$(MPY) -X heapsize=2m tests/mp_runner.py tests
	for f in tests/*/test_*_mp.py; do $(MPY) -X heapsize=2m tests/mp_runner.py $$f || exit 1; done

# One linter and one formatter (pyproject.toml says why each ignored rule is ignored).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/pyright

verify: $(STAMP)
	$(BIN)/python -m verify.all_hands

bench: $(STAMP)
	$(BIN)/python -m bench.run

# The expected crib of every discard, from first principles (tools/gen/cribtables.py, docs/advice.md),
# written to firmware/cribbage/cribtables.py, then set against the published tables.
crib-tables: $(STAMP)
	$(BIN)/python -m tools.gen.cribtables
	$(BIN)/python -m verify.compare_cribtables

# On the emulated Pico (../shared/rp2emu: MicroPython's RPI_PICO firmware on rp2040js; needs Node.js 18+).
# Without it both say why and fail. tests/device/ is not collected by `make test` (not test_*.py).
test-device: $(STAMP)
	$(BIN)/python -m pytest tests/device/smoke_pico.py

bench-device: $(STAMP)
	$(BIN)/python -m bench.device $(ARGS)

# Maker's documents (layout/drilling SVG and its A4/Letter pages, chain orders, wiring, BOM, assembly,
# power), the schematic, the circuit boards routed and checked by KiCad's pcbnew (Debian's kicad), their
# Gerbers, drill, pick-and-place and pictures, all from hardware/board.json.
hardware: $(TOOLS_STAMP)
	$(BIN)/python hardware/tools/generate.py --board hardware/board.json --out out/hardware

# CI: the committed, routed boards (hardware/boards/, which make test reads) routed again from scratch
# and compared (a few minutes of KiCad and the router).
hardware-recheck: $(TOOLS_STAMP)
	$(BIN)/python hardware/tools/recheck_boards.py hardware/board.json

# The firmware on the MicroPython unix port, the board drawn in the terminal (sim/launch.py, sim/hal.py).
# make sim ARGS="--script sim/demo.script"   (ARGS="--help" lists the options)
sim: $(SIM_STAMP)
	$(BIN)/python -m sim $(ARGS)

# Compile with mpy-cross and copy what changed to a Pico with mpremote (tools/deploy.py).
# make deploy PORT=/dev/ttyACM0   ARGS="--dry-run" lists what would be copied
# make deploy BOARD=my-board.json  sends another board definition as board.json (checked first)
PORT ?= auto
BOARD ?= hardware/board.json
deploy: $(TOOLS_STAMP)
	$(BIN)/python -m tools.deploy --port $(PORT) --board $(BOARD) $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis out
