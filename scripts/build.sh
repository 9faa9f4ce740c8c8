#!/usr/bin/env bash
# build.sh — bootstrap, then configure and build into build/ (-O2 -g).
# Extra arguments go to the cmake configure step, e.g.
#   scripts/build.sh -DCA_SANITIZE=ON
# CANCELAUDIT_BUILD_DIR picks another build folder (test.sh uses build-asan).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh

build=${CANCELAUDIT_BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$build" --parallel "$jobs"
echo "build: $build/cancelaudit ready"
