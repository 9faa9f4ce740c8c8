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
# The provider corpus gets its own store, so its matrix is the seven backends
# of corpus/providers and not every fixture of corpus/rules. The matrix goes
# to the terminal; reports/ gets the Markdown and HTML matrix and a Markdown
# and an HTML issue report per backend with a gap. Reproducible output (no
# dates, scan ids or absolute paths): reports/ changes only when the analysis
# does (tests/report/test_reports_current.py keeps it honest).
providers_db=.cancelaudit/providers.db
rm -f "$providers_db" "$providers_db-wal" "$providers_db-shm"
status=0
build/cancelaudit scan corpus/providers --db "$providers_db" --quiet --no-progress || status=$?
if [ "$status" -ge 2 ]; then
    echo "run: scan of corpus/providers failed (exit $status)" >&2
    exit "$status"
fi
echo
build/cancelaudit matrix --db "$providers_db"
export CANCELAUDIT_REPRODUCIBLE=1
mkdir -p reports
# only the files this job writes: the matrix and one report per provider backend
for f in reports/matrix corpus/providers/*/; do
    name=$(basename "$f")
    rm -f "reports/$name.md" "reports/$name.html"
done
build/cancelaudit matrix --db "$providers_db" --format markdown --output reports/matrix.md
build/cancelaudit matrix --db "$providers_db" --format html --output reports/matrix.html
gap_backends=$(build/cancelaudit matrix --db "$providers_db" --format json |
    python3 -c 'import json, sys; print("\n".join(sorted({c["backend"] for c in json.load(sys.stdin)["coverage"] if c["status"] == "gap"})))')
for backend in $gap_backends; do
    build/cancelaudit report --db "$providers_db" --backend "$backend" --output "reports/$backend.md"
    build/cancelaudit report --db "$providers_db" --backend "$backend" --format html --output "reports/$backend.html"
done
unset CANCELAUDIT_REPRODUCIBLE
echo "run: reports/ written: matrix.md, matrix.html and a report per gap backend ($(echo $gap_backends))"
# -----------------------------------------------------------------------------

exit 0
