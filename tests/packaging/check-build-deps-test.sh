#!/usr/bin/env bash
# The install-list check's own test: on BUILD_DIR it passes with the list as it is, and with one
# package taken out it fails, naming that package and the CMake package that needed it.
#   tests/packaging/check-build-deps-test.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: check-build-deps-test.sh BUILD_DIR}
check=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/packaging/check-build-deps.sh
fail() { echo "FAIL: $*"; exit 1; }

bash "$check" --command test "$build" || fail "the check fails on the list as it is"

expect_missing() { # PACKAGE WHAT-NEEDED-IT
    local out status
    out=$(bash "$check" --command test --without "$1" "$build" 2>&1); status=$?
    [ $status -eq 1 ] || fail "without $1 the check exited $status, expected 1: $out"
    grep -q "missing package $1:.*$2" <<<"$out" || fail "without $1 the message does not name it and $2: $out"
    grep -q "Add it to .*build-deps.txt" <<<"$out" || fail "without $1 the message does not say how to add it: $out"
    echo "ok: without $1 the check names it ($2)"
}
expect_missing libqt6opengl6-dev "CMake package Qt6OpenGL"
expect_missing nlohmann-json3-dev "CMake package nlohmann_json"
expect_missing ninja-build "CMAKE_MAKE_PROGRAM"

out=$(bash "$check" --command test /nonexistent 2>&1); status=$?
[ $status -eq 2 ] && grep -q "/nonexistent/CMakeCache.txt does not exist" <<<"$out" || fail "a missing build folder gave $status: $out"
echo "check-build-deps-test: every case passed"
