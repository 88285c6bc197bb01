"""The speed figures of the README and docs/: one value per figure
everywhere, ratios that follow from their parts as shown, and no speed
written down outside the markers that ``make bench`` rewrites
(``scripts/bench_figures.py``)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def figures() -> Iterator[ModuleType]:
    """``scripts/bench_figures.py``, imported from its file."""
    spec = importlib.util.spec_from_file_location(
        "bench_figures", ROOT / "scripts" / "bench_figures.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def test_the_documents_figures_agree(figures: ModuleType) -> None:
    assert figures.problems(figures.documents()) == []


def test_every_figure_is_shown(figures: ModuleType) -> None:
    shown = {key for _, text in figures.documents() for key, _ in figures.spans(text)}
    assert shown == {*figures.FIGURES, figures.MACHINE}


def fake_run() -> dict[str, Any]:
    """A pytest-benchmark JSON with every benchmark the figures read."""

    def bench(name: str, best: float = 1.0, **info: float) -> dict[str, Any]:
        # ``name`` is a test's name, or its full ``file::test`` name.
        fullname = name if "::" in name else f"benches/test_some.py::{name}"
        return {
            "name": fullname.split("::")[-1],
            "fullname": fullname,
            "stats": {"min": best},
            "extra_info": info,
        }

    rl = {
        "VectorEnv, random_actions() (decisions/s)": 14_373_711,
        "VectorEnv, numpy draws over the masks (decisions/s)": 3_093_463,
        "OpenSpiel adapter, stepping only (decisions/s)": 322_104,
        "OpenSpiel rl_environment over the adapter (decisions/s)": 27_025,
    }
    return {
        "machine_info": {"python_version": "3.11.7", "cpu": {"brand_raw": "Test CPU", "count": 2}},
        "benchmarks": [
            bench("test_perft_2[rust]", 115.3e-6, result=1_954_282),
            bench("test_perft_2[reference]", 0.1072),
            bench("test_len_legal_moves[rust]", 0.7231e-6, result=1428),
            bench("test_len_legal_moves[reference]", 69.1e-6),
            bench("test_push_pop_turn[rust]", 0.2214e-6),
            bench("test_push_pop_turn[reference]", 6.13e-6),
            bench(
                "test_micro_against_openspiel_amazons",
                **{"veletas games/s": 416_321.0, "amazons games/s": 15_612.0},
            ),
            bench(
                "benches/test_playouts.py::test_two_threads_against_one",
                **{"2 threads games/s": 822_456.0, "1 thread games/s": 409_000.0},
            ),
            # The same test name in another file, which the figures do not read.
            bench(
                "benches/test_match.py::test_two_threads_against_one",
                **{"2 threads games/s": 1.0, "1 thread games/s": 1.0},
            ),
            bench(
                "test_micro_against_uniform",
                **{"micro games/s": 400_000.0, "uniform games/s": 56_911.0},
            ),
            bench(
                "test_rust_against_the_reference[micro]",
                **{"rust games/s": 399_000.0, "reference games/s": 191.4},
            ),
            bench(
                "test_rust_against_the_reference[uniform]",
                **{"rust games/s": 55_000.0, "reference games/s": 188.2},
            ),
            bench("test_vector_env_against_openspiel", **rl),
            bench(
                "test_meridians_vector_env_against_openspiel",
                **{
                    "VectorEnv, random_actions() (decisions/s)": 2_935_470,
                    "VectorEnv, numpy draws over the masks (decisions/s)": 1_171_224,
                    "OpenSpiel adapter, stepping only (decisions/s)": 19_989,
                },
            ),
            bench(
                "test_gymnasium_wrapper_against_the_raw_env",
                **{
                    "raw VectorEnv (decisions/s)": 8_857_018,
                    "gymnasium make_vec (decisions/s)": 6_883_251,
                },
            ),
            bench(
                "test_random_opponent_against_self_play",
                **{
                    "self-play (both seats are the learner) (decisions/s)": 8_439_606,
                    "opponent='random' (the learner's seat only) (decisions/s)": 6_884_757,
                },
            ),
            bench(
                "test_ray_against_one_machine",
                **{
                    "ray games/s": 363_612.0,
                    "one machine games/s": 366_843.0,
                    "seconds to join the cluster": 0.5123,
                },
            ),
            bench(
                "test_the_cost_of_a_chunk",
                **{"ms per chunk (fit)": 1.0434, "ms per 1-game chunk": 0.9876},
            ),
            bench("test_starting_a_local_runtime", 7.123),
            *(
                bench(
                    f"test_endgames_against_the_plain_minimax[{name}]",
                    **{
                        "veletas.solve (df-pn, native) positions/s": solver,
                        "plain minimax (reference engine) positions/s": minimax,
                    },
                )
                for name, solver, minimax in [
                    ("veletas-5x5", 1_885.2, 204.1),
                    ("meridians-5-6", 912.3, 45.6),
                ]
            ),
            *(
                bench(
                    f"test_nodes_a_second_with_a_small_and_the_default_table[{name}]",
                    **{"1 MiB table nodes/s": small, "256 MiB table (the default) nodes/s": big},
                )
                for name, small, big in [
                    ("veletas-7x7", 2_616_764.0, 686_708.0),
                    ("meridians-5-6", 856_906.0, 116_240.0),
                ]
            ),
            bench(
                "test_the_setup_with_and_without_the_symmetries",
                **{
                    "images folded nodes/s": 396_461.0,
                    "not folded nodes/s": 401_505.0,
                    "images folded entries/M nodes": 951_234.0,
                    "not folded entries/M nodes": 978_321.0,
                },
            ),
        ],
    }


def test_a_run_is_written_consistently(figures: ModuleType) -> None:
    shown = figures.measure(figures.Bench(fake_run()))
    # Measured figures, rounded; the best of several measurements of one thing.
    assert shown["micro_1t"] == "416,000"
    assert shown["micro_2t"] == "822,000"
    assert shown["uniform_1t"] == "56,900"
    assert shown["perft_rust"] == "115 µs"
    assert shown["legal_moves_rust"] == "723 ns"
    assert shown["vector_env_random"] == "14.4 M"
    assert shown["meridians_vector_env_random_vs_stepping"] == "147x"  # 2.94 M / 20,000
    assert shown["ray_local_runtime"] == "7.12 s"
    assert shown["machine"] == "a 2-CPU Test CPU machine with Python 3.11.7"
    # the kernel, where the run recorded it.
    run = fake_run()
    run["machine_info"]["veletas_kernel"] = "portable"
    assert figures.Bench(run).machine().endswith("Python 3.11.7, the portable kernel")
    # Derived figures, from the parts as shown: 822,000 / 416,000, not the
    # unrounded rates, nor the 1-thread rate measured beside the 2 threads.
    assert shown["threads_ratio"] == "1.98x"
    assert shown["perft_speedup"] == "930x"  # 107 ms / 115 µs
    assert shown["perft_leaves_per_s"] == "17 billion"
    assert shown["micro_game_time"] == "2.4 µs"
    assert shown["chunk_games"] == "832,000"
    rewritten = [(name, figures.rewrite(text, shown)) for name, text in figures.documents()]
    assert figures.problems(rewritten) == []
    assert any("<!-- figure:threads_ratio -->1.98x<!-- /figure -->" in t for _, t in rewritten)


def test_disagreements_are_found(figures: ModuleType) -> None:
    def page(text: str) -> list[tuple[str, str]]:
        return [("page.md", text)]

    def figure(key: str, text: str) -> str:
        return f"<!-- figure:{key} -->{text}<!-- /figure -->"

    parts = f"{figure('micro_2t', '822,000')} against {figure('micro_1t', '416,000')}"
    assert figures.problems(page(f"{parts}: {figure('threads_ratio', '1.98x')}")) == []
    (wrong,) = figures.problems(page(f"{parts}: {figure('threads_ratio', '2.01x')}"))
    assert "'threads_ratio' reads '2.01x'; its parts as shown give '1.98x'" in wrong
    (twice,) = figures.problems(
        page(f"{figure('micro_1t', '416,000')} {figure('micro_1t', '355,000')}")
    )
    assert "'micro_1t' reads ['355,000', '416,000']" in twice
    (alone,) = figures.problems(page(figure("threads_ratio", "1.98x")))
    assert "shown without its parts" in alone
    (unknown,) = figures.problems(page(figure("warp_speed", "9")))
    assert "unknown figure 'warp_speed'" in unknown
    loose = figures.problems(page("about 350,000 games a second, 27x OpenSpiel, in 2.8 µs"))
    assert len(loose) == 3
    assert figures.problems(page("a 10x10 board, `1.5x` in code")) == []
