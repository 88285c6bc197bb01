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

.PHONY: lint
lint: ## ruff, mypy --strict and its stub check, rustfmt and clippy (needs the dev extra)
	$(PYTHON) -m ruff check python tests benches scripts examples
	$(PYTHON) -m ruff format --check python tests benches scripts examples
	$(PYTHON) -m mypy --strict python/veletas
	$(PYTHON) -m mypy.stubtest veletas._veletas --allowlist .mypy-stubtest-allowlist
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --all-targets --features python -- -D warnings

.PHONY: format
format: ## Format Python and Rust code
	$(PYTHON) -m ruff format python tests benches scripts examples
	$(PYTHON) -m ruff check --fix python tests benches scripts examples
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

.PHONY: ci
ci: ## What CI runs, on this checkout
	bash .ci/run
