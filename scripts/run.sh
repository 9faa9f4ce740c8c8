#!/usr/bin/env bash
# run.sh — build, then the main job: scan corpus/ into the default store
# (.cancelaudit/audit.db). Findings are the expected result (scan exits 1);
# only a usage or internal error (exit >= 2) fails this script.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh

status=0
build/cancelaudit scan corpus || status=$?
if [ "$status" -ge 2 ]; then
    echo "run: scan failed (exit $status)" >&2
    exit "$status"
fi

# --- matrix and reports ------------------------------------------------------
# The coverage matrix and the reports are produced here from the store, e.g.
#   build/cancelaudit matrix ...
#   build/cancelaudit report ...
# -----------------------------------------------------------------------------

exit 0
