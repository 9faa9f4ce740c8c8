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
echo "== ctest: build/"
ctest --test-dir build --output-on-failure --parallel "$jobs" --timeout "$timeout" || status=1

CANCELAUDIT_BUILD_DIR=build-asan bash scripts/build.sh -DCA_SANITIZE=ON
echo "== ctest: build-asan/ (ASan + UBSan)"
ctest --test-dir build-asan --output-on-failure --parallel "$jobs" --timeout "$timeout" || status=1

if [ "$status" -ne 0 ]; then
    echo "test: FAILED" >&2
else
    echo "test: all passed (build/ and build-asan/)"
fi
exit "$status"
