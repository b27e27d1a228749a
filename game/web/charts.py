"""Bar charts drawn on the server as inline SVG (templates/charts/_bars.html), sized in a
fixed viewBox that scales to the page; the site's CSS colours them in either theme."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 300, 120
TOP, BOTTOM = 14, 104  # the plot's top and baseline: room above for a value, below for labels
GAP = 0.2  # the share of each slot left empty between bars


@dataclass(frozen=True)
class Bar:
    item: Any  # what the bar stands for, for its label
    x: float
    y: float
    width: float
    height: float
    centre: float

    @property
    def above(self) -> float:
        """Where a label over the bar sits."""
        return self.y - 3


@dataclass(frozen=True)
class BarChart:
    bars: list[Bar]
    peak: float  # the value a full-height bar stands for
    width: int = WIDTH
    height: int = HEIGHT
    top: int = TOP
    baseline: int = BOTTOM
    label_y: int = HEIGHT - 4  # the labels under the baseline


def bar_chart(items: Sequence[Any], values: Sequence[float | None]) -> BarChart:
    """One slot per item, left to right; a None value leaves its slot empty (a gap)."""
    peak = max((value for value in values if value), default=0)
    slot = WIDTH / max(len(items), 1)
    bars = [
        _bar(item, index * slot, slot, value / peak if peak else 0)
        for index, (item, value) in enumerate(zip(items, values, strict=True))
        if value is not None
    ]
    return BarChart(bars, peak)


def _bar(item: Any, left: float, slot: float, share: float) -> Bar:
    # A zero still shows as a sliver, so a bar is never mistaken for a gap.
    height = max(share * (BOTTOM - TOP), 1.5)
    width = slot * (1 - GAP)
    return Bar(item, left + slot * GAP / 2, BOTTOM - height, width, height, left + slot / 2)


@dataclass(frozen=True)
class Point:
    item: Any  # what the point stands for, for its title
    x: float
    y: float


@dataclass(frozen=True)
class LineChart:
    points: list[Point]
    low: float  # the value of the lowest point's height (LINE_LOW)
    high: float  # the value at the plot's top
    width: int = WIDTH
    height: int = HEIGHT
    top: int = TOP
    baseline: int = BOTTOM
    label_y: int = HEIGHT - 4

    @property
    def path(self) -> str:
        """The points as an SVG polyline's `points`."""
        return " ".join(f"{point.x:.1f},{point.y:.1f}" for point in self.points)


LINE_MARGIN = 6  # the room left at either end, so a first or last point is not clipped
LINE_LOW = BOTTOM - 14  # the lowest point's height: the band below it holds the low value
LINE_MIN_SPAN = 100.0  # a flat line's scale: values that hardly move are drawn flat, not jagged


def line_chart(items: Sequence[Any], values: Sequence[float]) -> LineChart:
    """One point per item, evenly spaced left to right, scaled between the values' extremes;
    values that hardly move are drawn about the middle, on a scale of LINE_MIN_SPAN.

    >>> chart = line_chart(["a", "b", "c"], [1500, 1600, 1550])
    >>> [(round(p.x), round(p.y)) for p in chart.points], chart.low, chart.high
    ([(6, 90), (150, 14), (294, 52)], 1500, 1600)
    >>> [round(p.y) for p in line_chart(["a", "b"], [1500, 1510]).points]
    [56, 48]
    """
    low, high = min(values, default=0.0), max(values, default=0.0)
    if high - low < LINE_MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - LINE_MIN_SPAN / 2, middle + LINE_MIN_SPAN / 2
    step = (WIDTH - 2 * LINE_MARGIN) / max(len(items) - 1, 1)
    points = [
        Point(item, LINE_MARGIN + index * step, _height_of(value, low, high))
        for index, (item, value) in enumerate(zip(items, values, strict=True))
    ]
    return LineChart(points, low, high)


def _height_of(value: float, low: float, high: float) -> float:
    return LINE_LOW - (value - low) / (high - low) * (LINE_LOW - TOP)
