.DEFAULT_GOAL := help
PYTHON ?= python3

.PHONY: help
help: ## Show this help
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  %-12s %s\n", $$1, $$2}'

.PHONY: build-dev
build-dev: ## Build the extension in place (editable install, release profile, the dev extra)
	@rm -f python/veletas/*.so
	$(PYTHON) -m pip install -q -e ".[dev]" --config-settings=build-args="--profile release"

.PHONY: test
test: ## Run the test suite (fast profile)
	$(PYTHON) -m pytest

.PHONY: test-slow
test-slow: ## Run the slow tests: long random games, the slow Hypothesis profile
	VELETAS_HYPOTHESIS_PROFILE=slow $(PYTHON) -m pytest -m slow

.PHONY: test-solver
test-solver: ## The exact solver against the plain minimax on 2,000 endgames of each kind of board
	VELETAS_SOLVER_POSITIONS=2000 $(PYTHON) -m pytest tests/test_solving.py -k minimax -s -p no:randomly

SECONDS ?= 600
WORKERS ?= 1

.PHONY: strength
strength: ## The standard strength table: play SECONDS more of its games (resumed; ROWS=id,... for some rows), render docs/bots.md
	$(PYTHON) scripts/strength.py --seconds $(SECONDS) $(if $(ROWS),--rows $(ROWS))

.PHONY: ladder
ladder: ## The skill ladder: play SECONDS more of its steps (resumed), render docs/bots.md
	$(PYTHON) scripts/strength.py --table ladder --seconds $(SECONDS)

.PHONY: solve-5x5
solve-5x5: ## Veletas 5x5/3's openings: solve SECONDS more of them (resumed; WORKERS leaves at once), render docs/solved.md
	$(PYTHON) scripts/solve_openings.py --size 5 --seconds $(SECONDS) --workers $(WORKERS)

.PHONY: solve-6x6
solve-6x6: ## Veletas 6x6/3's openings: solve SECONDS more of them (resumed; WORKERS leaves at once), render docs/solved.md
	$(PYTHON) scripts/solve_openings.py --size 6 --seconds $(SECONDS) --workers $(WORKERS)

.PHONY: lint
lint: ## ruff, mypy --strict and its stub check, rustfmt and clippy (needs the dev extra)
	$(PYTHON) -m ruff check python tests benches scripts examples docs/*.py
	$(PYTHON) -m ruff format --check python tests benches scripts examples docs/*.py
	$(PYTHON) -m mypy --strict python/veletas
	$(PYTHON) -m mypy.stubtest veletas._veletas --allowlist .mypy-stubtest-allowlist
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --all-targets --features python -- -D warnings

.PHONY: format
format: ## Format Python and Rust code
	$(PYTHON) -m ruff format python tests benches scripts examples docs/*.py
	$(PYTHON) -m ruff check --fix python tests benches scripts examples docs/*.py
	cargo fmt --all

BENCH_JSON ?= .benchmarks/bench.json

.PHONY: bench
bench: ## Run the benchmarks (ratios measured in one run); write their figures into the docs
	@mkdir -p $(dir $(BENCH_JSON))
	$(PYTHON) -m pytest benches --benchmark-enable --benchmark-group-by=group -p no:randomly \
		--benchmark-json=$(BENCH_JSON)
	$(PYTHON) scripts/bench_figures.py $(BENCH_JSON)
	cargo bench --workspace

.PHONY: bench-serve
bench-serve: ## Load test of veletas serve: 20 clients against a 0.05 s bot for 60 s
	$(PYTHON) -m pytest benches/test_serve_load.py -m slow -s -p no:randomly

FUZZ_SECONDS ?= 60

.PHONY: fuzz
fuzz: ## Fuzz the parsers, FUZZ_SECONDS per target (nightly, cargo-fuzz, atheris; not in CI)
	PYTHON=$(PYTHON) bash fuzz/run.sh $(FUZZ_SECONDS)

# The release's files: one abi3 wheel for every CPython >= 3.10 on Linux
# x86-64 with glibc >= 2.17 (manylinux2014, linked by zig against that glibc's
# symbols; a plain build here would need this machine's glibc), and the sdist.
# Needs maturin and ziglang (the dev extra).
DIST ?= dist

.PHONY: dist-tools
dist-tools:
	@$(PYTHON) -c "import maturin, ziglang" 2>/dev/null || { \
		echo "make dist needs maturin and ziglang, which the dev extra brings:" \
			"$(PYTHON) -m pip install -e '.[dev]'" >&2; exit 1; }

.PHONY: dist
dist: dist-tools ## Build the abi3 wheel and the sdist into dist/, with their SHA-256 sums
	@mkdir -p $(DIST)
	rm -f $(DIST)/veletas-*.whl $(DIST)/veletas-*.tar.gz $(DIST)/SHA256SUMS
	$(PYTHON) -m maturin build --release --zig --compatibility manylinux2014 --features abi3 --out $(DIST)
	$(PYTHON) -m maturin sdist --out $(DIST)
	cd $(DIST) && sha256sum veletas-*.whl veletas-*.tar.gz > SHA256SUMS && cat SHA256SUMS

# A wheel for the interpreter of $(PYTHON) alone (cp3XX-cp3XX), beside the
# abi3 one: pip prefers it where both are offered. Each object the bindings
# make costs a few dozen instructions less than under the stable ABI (about
# 10% of list(board.legal_moves), see make bench-stable-abi).
.PHONY: dist-version-specific
dist-version-specific: dist ## Also build the version-specific wheel of $(PYTHON) into dist/
	$(PYTHON) -m maturin build --release --zig --compatibility manylinux2014 --features python --out $(DIST)
	cd $(DIST) && sha256sum veletas-*.whl veletas-*.tar.gz > SHA256SUMS && cat SHA256SUMS

.PHONY: docs
docs: ## Build the documentation site into docs/_build/html (warnings fail it)
	$(PYTHON) -m sphinx -E -W --keep-going -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html"

BENCH_ABI3 ?= .benchmarks/stable-abi

.PHONY: bench-stable-abi
bench-stable-abi: ## The stable ABI's cost: the version-specific and the abi3 wheel, timed in one run
	rm -rf $(BENCH_ABI3)
	$(PYTHON) -m maturin build --release --zig --compatibility manylinux2014 --features python --out $(BENCH_ABI3)/version-specific
	$(PYTHON) -m maturin build --release --zig --compatibility manylinux2014 --features abi3 --out $(BENCH_ABI3)/abi3
	for build in version-specific abi3; do \
		$(PYTHON) -m venv --system-site-packages $(BENCH_ABI3)/venv-$$build && \
		$(BENCH_ABI3)/venv-$$build/bin/python -m pip install -q --no-deps $(BENCH_ABI3)/$$build/veletas-*.whl || exit 1; \
	done
	$(PYTHON) benches/stable_abi.py --build version-specific=$(BENCH_ABI3)/venv-version-specific/bin/python \
		--build abi3=$(BENCH_ABI3)/venv-abi3/bin/python --json $(BENCH_ABI3)/ratios.json

.PHONY: ci
ci: ## What CI runs, on this checkout
	bash .ci/run
