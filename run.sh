#!/bin/sh
# The project's two entry points: `./run.sh serve` and `./run.sh test`.
# Each one creates the virtual environment in .venv (Python >= 3.11) and installs the project into it first,
# so both work on a fresh machine with nothing but Python.
set -eu
cd "$(dirname "$0")"

PYTHON="${PYTHON:-python3}"
VENV=.venv

ensure_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed")'
        "$PYTHON" -m venv "$VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
    fi
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[$1]"
}

# The browser tests drive Debian's Chromium; install it quietly when it is missing and apt-get can (CI runs as
# root). Without it those tests are skipped with a message, and the rest of the suite still runs.
ensure_chromium() {
    if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "installing chromium for the browser tests (apt-get)..."
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
            || echo "could not install chromium: the browser tests will be skipped"
    fi
}

# The PgBouncer test starts Debian's pgbouncer in front of the test PostgreSQL; install it the same way (without it
# that test is skipped with a message).
ensure_pgbouncer() {
    if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ] \
        && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "installing pgbouncer for the connection pooler test (apt-get)..."
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pgbouncer \
            >/dev/null) || echo "could not install pgbouncer: the pooler test will be skipped"
    fi
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    serve)
        ensure_venv dev
        exec "$VENV/bin/python" -m app serve "$@"
        ;;
    test)
        ensure_venv dev
        ensure_chromium
        ensure_pgbouncer
        # Two workers (pytest-xdist): the suite is about 10 minutes on two cores instead of 15 serially.
        # TEST_WORKERS=0 runs it in one process; arguments given after `test` go to pytest as they are.
        exec "$VENV/bin/python" -m pytest -n "${TEST_WORKERS:-2}" "$@"
        ;;
    *)
        echo "usage: ./run.sh serve [--host H] [--port P]   start the server (embedded PostgreSQL unless DATABASE_URL is set)"
        echo "       ./run.sh test [pytest args]              install everything and run the whole test suite"
        exit 2
        ;;
esac
