"""Counters behind tc.stats(): what was compiled, and what ran eagerly."""
from __future__ import annotations

import collections
import logging
import threading

_lock = threading.Lock()
_counts = collections.Counter()
_reasons = collections.Counter()  # why a graph ran eagerly -> how often

log = logging.getLogger("tc")


def count(name: str, amount: int = 1) -> None:
    with _lock:
        _counts[name] += amount


def fallback(reason: str) -> None:
    """A graph that tc could not take runs eagerly: counted, and its reason
    logged once (as torch's own fallbacks are)."""
    with _lock:
        _counts["eager_fallbacks"] += 1
        first = reason not in _reasons
        _reasons[reason] += 1
    if first:
        log.warning("tc: running a graph eagerly: %s", reason)


def snapshot() -> dict:
    with _lock:
        stats = {name: _counts[name] for name in
                 ("models_compiled", "recompiles", "dynamo_graphs", "eager_fallbacks")}
        stats["fallback_reasons"] = dict(_reasons)
        return stats


def reset() -> None:
    with _lock:
        _counts.clear()
        _reasons.clear()
