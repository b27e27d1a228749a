"""The figures the harness's runs and the benchmarks report."""


def percentile(values: list[float], fraction: float) -> float:
    """The value at `fraction` of the sorted `values` (the nearest rank below); 0.0 for none."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0
