#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs every check:
# ruff, mypy and pytest (unit, doctests, property, API, real-server and browser tests).
# Usage: bash scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# Headless Chromium for the browser tests comes from Debian, never from `playwright install`.
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# Pages need at least one font to render text in screenshots.
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need_apt+=(fonts-dejavu-core)
if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need_apt[@]}"
    else
        echo "missing ${need_apt[*]}: run 'sudo apt-get install ${need_apt[*]}' once" >&2
        exit 1
    fi
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'

echo "== ruff"
.venv/bin/ruff check .
echo "== mypy"
.venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest "$@"
