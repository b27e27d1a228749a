"""How results are ordered everywhere: score desc, then time asc, then moves asc."""

RANK_ORDER = ("-score", "duration_ms", "moves", "finished_at")
