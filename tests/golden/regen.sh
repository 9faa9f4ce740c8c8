#!/usr/bin/env bash
# regen.sh — regenerate the golden outputs (tests/golden/providers/) and the
# example reports (reports/) from corpus/providers with the current build,
# after building it. One command; review the result with `git diff`.
#
#   tests/golden/regen.sh
#
# CANCELAUDIT names another binary (then nothing is built).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${CANCELAUDIT:-}" ]; then
    cmake --build "${CANCELAUDIT_BUILD_DIR:-build}" --parallel "$(nproc 2>/dev/null || echo 2)" >/dev/null
    export CANCELAUDIT="$PWD/${CANCELAUDIT_BUILD_DIR:-build}/cancelaudit"
fi
exec python3 tests/report/reportkit.py regen
