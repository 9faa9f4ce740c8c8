#!/usr/bin/env bash
# test.sh — the whole suite: build/ (-O2 -g) and build-asan/ (ASan + UBSan),
# ctest in each. Exits non-zero when anything fails in either.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc 2>/dev/null || echo 2)
# A hung test fails after this many seconds instead of eating CI's time
# (a test that needs longer sets its own TIMEOUT property).
timeout=${CANCELAUDIT_TEST_TIMEOUT:-900}
status=0

bash scripts/build.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
echo "== ctest: build/"
ctest --test-dir build --output-on-failure --parallel "$jobs" --timeout "$timeout" 2>&1 | tee "$logs/plain.log" || status=1

CANCELAUDIT_BUILD_DIR=build-asan bash scripts/build.sh -DCA_SANITIZE=ON
echo "== ctest: build-asan/ (ASan + UBSan)"
ctest --test-dir build-asan --output-on-failure --parallel "$jobs" --timeout "$timeout" 2>&1 | tee "$logs/asan.log" || status=1

# One closing line for both runs, from ctest's own summaries:
# "N% tests passed, F tests failed out of T".
total=0
failed=0
skipped=0
for log in "$logs/plain.log" "$logs/asan.log"; do
    # a skipped test is no pass (the fuzz run and valgrind skip in the ASan
    # build, where the plain build has run them)
    skipped=$((skipped + $(grep -c '\*\*\*Skipped' "$log" || true)))
    line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1 || true)
    if [ -z "$line" ]; then
        status=1
        continue
    fi
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/')
    t=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/')
    total=$((total + t))
    failed=$((failed + f))
done
[ "$failed" -eq 0 ] || status=1
echo "ctest: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
exit "$status"
