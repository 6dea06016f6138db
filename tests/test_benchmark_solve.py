"""benchmarks/solve.py's comparison of the engines on the same deals."""

from __future__ import annotations

from benchmark_helpers import load_benchmark


def test_the_core_is_compared_with_python_on_the_python_deals_only() -> None:
    bench = load_benchmark("solve")

    def run(engine: str, deal: int, cpu: float, nodes: int) -> object:
        return bench.DealRun(engine, deal, "won", cpu, cpu, nodes, 100, 50.0)

    runs = {
        # Deal 3, which Python did not play, is slow for the core: it must not count.
        "core": [run("core", 1, 0.1, 10_000), run("core", 2, 0.1, 30_000), run("core", 3, 4, 4)],
        "python": [run("python", 1, 1.0, 10_000), run("python", 2, 3.0, 30_000)],
    }
    text = bench.same_deals_ratio(runs)
    assert text is not None
    assert "| core, the Python deals | 2 |" in text
    assert "200,000" in text  # 40,000 nodes in 0.2 CPU s
    assert text.endswith("expands 20.0 times the nodes a CPU second.")
    # Python on every deal, or no Python run: nothing to add to the table.
    runs["core"] = runs["core"][:2]
    assert bench.same_deals_ratio(runs) is None
    assert bench.same_deals_ratio({"core": runs["core"]}) is None
