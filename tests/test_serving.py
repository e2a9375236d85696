"""What the server process sets up before it serves: open files for its streams, and its garbage collector."""

from __future__ import annotations

import gc
import logging
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


@pytest.mark.parametrize("colours", [False, True])
@pytest.mark.parametrize("status", [200, 201, 304, 404, 429, 500, 599])
def test_an_access_line_reads_as_uvicorns_own(colours: bool, status: int) -> None:
    """`AccessLines` writes the text uvicorn's `AccessFormatter` writes, with the format of uvicorn's configuration,
    coloured or not, for any status (one without words too), line after line."""
    from uvicorn.logging import AccessFormatter

    fmt = serving._text_logging()["formatters"]["access"]["fmt"]
    ours, theirs = serving.AccessLines(fmt, use_colors=colours), AccessFormatter(fmt, use_colors=colours)
    for path in ("/api/v1/games/7/moves", "/api/v1/games/7/stream?moves=true"):
        record = logging.LogRecord(
            "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
            ("127.0.0.1:5000", "POST", path, "1.1", status), None,
        )
        assert ours.format(record) == theirs.format(record)
        assert "levelprefix" not in record.__dict__  # the record is left as it was


def test_text_logs_keep_uvicorns_configuration_but_the_access_lines_formatter() -> None:
    from uvicorn.config import LOGGING_CONFIG

    config = serving.configure_logging("text")["log_config"]
    access = config["formatters"].pop("access")
    expected = {**LOGGING_CONFIG["formatters"]}
    assert access == {**expected.pop("access"), "()": "app.serving.AccessLines"}
    assert config["formatters"] == expected
    assert {k: v for k, v in config.items() if k != "formatters"} == {
        k: v for k, v in LOGGING_CONFIG.items() if k != "formatters"
    }
