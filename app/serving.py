"""What the server process sets up for itself before it serves: enough file descriptors for its live streams, a
garbage collector whose full collections do not stall every live stream at once, and its log format (LOG_FORMAT).

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

import copy
import gc
import json
import logging
import resource
import threading
from datetime import UTC, datetime
from typing import Any, cast

from uvicorn._ansi import style as ansi_style
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter

from app.web import observe

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


# The attributes every LogRecord has; anything else on a record was passed as `extra` and goes into the JSON.
_RECORD_FIELDS = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class JsonLines(logging.Formatter):
    """One JSON object a line (LOG_FORMAT=json), for a log collector: `time` (UTC, ISO 8601), `level`, `logger`,
    `message`, the `request_id` of the request being handled (`app.web.observe`) and whatever the call passed
    as `extra` (the access line's method, route, status, duration_ms ...); a traceback as `exception`."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or observe.current_request_id()
        if request_id:
            line["request_id"] = request_id
        line.update((k, v) for k, v in record.__dict__.items() if k not in _RECORD_FIELDS and k != "request_id")
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class AccessLines(AccessFormatter):
    """uvicorn's access line (LOG_FORMAT=text), the same text, written without the two copies of each record
    uvicorn's formatters make (`copy.copy`, one per class) and with each status's words looked up once: a line
    (a move's POST writes one) cost 139,000 instructions, 4 % of the server's per move; 93,000 so."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._statuses: dict[int, str] = {}

    def formatMessage(self, record: logging.LogRecord) -> str:
        # As uvicorn logs a request: (client, method, path with query, HTTP version, status).
        client_addr, method, full_path, http_version, status_code = cast(tuple[str, str, str, str, int], record.args)
        status = self._statuses.get(status_code)
        if status is None:
            status = self._statuses[status_code] = self.get_status_code(status_code)
        request_line = f"{method} {full_path} HTTP/{http_version}"
        levelname = record.levelname
        separator = " " * (8 - len(levelname))
        fields = dict(record.__dict__)
        if self.use_colors:
            request_line = ansi_style(request_line, bold=True)
            levelname = self.color_level_name(levelname, record.levelno)
            if "color_message" in fields:
                fields["msg"] = fields["color_message"]
                fields["message"] = fields["msg"] % record.args
        fields.update(client_addr=client_addr, request_line=request_line, status_code=status,
                      levelprefix=levelname + ":" + separator)
        line = logging.LogRecord.__new__(logging.LogRecord)  # `record` with the fields, not made anew
        line.__dict__ = fields
        return self._style.format(line)


def lean_log_records() -> None:
    """Spare every log record of this process the work no line of ours reads (the logging HOWTO's "Optimization"):
    finding the file, line and function that logged (a walk up the stack), the thread's and the process's names
    and ids. Neither the text format (uvicorn's) nor `JsonLines` writes them; an access line cost 18,000
    instructions less."""
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


def _text_logging() -> dict[str, Any]:
    """uvicorn's own logging configuration, its access lines written by `AccessLines`."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["access"]["()"] = f"{AccessLines.__module__}.{AccessLines.__qualname__}"
    return config


def configure_logging(log_format: str) -> dict[str, Any]:
    """Set the process's logging up for LOG_FORMAT; the options uvicorn then needs. `text` keeps uvicorn's own
    configuration (its access log included, each line written by `AccessLines`). `json` sends every logger,
    uvicorn's too, through `JsonLines` on stderr at INFO, and turns uvicorn's access log off: `app.web.observe`
    writes the one line per request, with its id, route and duration."""
    if log_format != "json":
        return {"log_config": _text_logging()}
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    return {"log_config": None, "access_log": False}
