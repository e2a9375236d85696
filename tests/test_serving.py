"""What the server process sets up before it serves: open files for its streams, and its garbage collector."""

from __future__ import annotations

import gc
import resource
import time
import weakref
from collections.abc import Iterator

import pytest

from app import serving


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector as the test found it, afterwards."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_the_soft_limit_on_open_files_rises_to_the_hard_limit() -> None:
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, before[1]), before[1]))
        soft, hard = serving.raise_open_file_limit()
        assert hard == before[1]
        assert soft == (hard if hard != resource.RLIM_INFINITY else max(256, 65536))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, before)


class Node:
    """An object that can take part in a reference cycle."""

    other: Node | None = None


def test_full_collections_run_on_a_timer_not_by_counts_and_the_start_up_is_frozen(collector: None) -> None:
    stop = serving.collect_garbage_on_a_timer(every=0.05)
    assert gc.get_threshold() == (*serving.THRESHOLDS, 2**31 - 1)
    assert gc.get_freeze_count() > 0
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    for _ in range(3):  # the cycle survives the young generations into the oldest
        gc.collect(1)
    del a, b
    for _ in range(100):
        if gone() is None:
            break
        time.sleep(0.02)
    stop.set()
    assert gone() is None  # a full collection came round and freed the cycle
