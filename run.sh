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

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    serve)
        ensure_venv dev
        exec "$VENV/bin/python" -m app serve "$@"
        ;;
    test)
        ensure_venv dev
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    *)
        echo "usage: ./run.sh serve [--host H] [--port P]   start the server (embedded PostgreSQL unless DATABASE_URL is set)"
        echo "       ./run.sh test [pytest args]              install everything and run the whole test suite"
        exit 2
        ;;
esac
