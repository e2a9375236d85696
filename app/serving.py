"""What the server process sets up for itself before it serves: enough file descriptors for its live streams, and
a garbage collector whose full collections do not stall every live stream at once.

Why the collector: CPython's full collection walks every object the process holds, and a server holding a
thousand live streams holds half a million (each stream's middleware coroutines, tasks and cancel scopes, about
400 objects); by default one runs whenever a quarter more objects survived since the last, which a server whose
players come and go meets every few hundred streams opened. Measured with 1,000 streams (`bench/fanout.py`): a
full collection took 0.3-1.7 s on a shared two-core machine, and every stream and request waited for it. So the
objects of the start-up (the code, the catalogs, the schemas: about 150,000) are frozen out of collections, and
full collections run on a timer instead, every FULL_COLLECTION_SECONDS; the young generations are collected as
usual, and reference counting frees all but cycles in any case.
"""

from __future__ import annotations

import gc
import resource
import threading

FULL_COLLECTION_SECONDS = 600.0
# Young generations as CPython's defaults (700, 10); the third number only counts second-generation collections
# once automatic full collections are off (see `collect_garbage_on_a_timer`).
THRESHOLDS = (700, 10)


def raise_open_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit on open files to its hard limit (each live stream holds a socket; the
    common default of 1,024 would refuse connections past about a thousand streams). Returns (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return soft, hard
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def collect_garbage_on_a_timer(every: float = FULL_COLLECTION_SECONDS) -> threading.Event:
    """Freeze what the process holds now (call it once the application is built), leave the young generations
    to the collector, and run a full collection every `every` seconds from a daemon thread instead of whenever
    the collector's counts say so. Setting the event returned stops the timer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS, 2**31 - 1)
    stop = threading.Event()
    threading.Thread(target=_collect_until, args=(every, stop), name="full-gc", daemon=True).start()
    return stop


def _collect_until(every: float, stop: threading.Event) -> None:
    while not stop.wait(every):
        gc.collect()
