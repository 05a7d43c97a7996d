#!/usr/bin/env bash
# Configures, builds and tests the KF5 compatibility project in BUILD_DIR.
# Usage: tests/kf5compat/run.sh BUILD_DIR   (DSW_JOBS sets the build parallelism, default 2)
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
build_dir=$1
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

configure_args=(-S "$source_dir" -B "$build_dir")
# The generator can only be chosen on the first configure of a build directory.
if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
    configure_args+=(-G Ninja)
fi

cmake "${configure_args[@]}"
cmake --build "$build_dir" --parallel "${DSW_JOBS:-2}"
ctest --test-dir "$build_dir" --output-on-failure
