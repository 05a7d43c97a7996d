#!/usr/bin/env bash
# ds-wizard set-up on Debian 12: installs what the build needs with apt when it is missing, builds,
# then opens the app ("open") or runs every test ("test").
#   bash packaging/dev.sh open [FILE.dswiz]
#   bash packaging/dev.sh test
# CI also runs:
#   bash packaging/dev.sh sanitize   the suite once under AddressSanitizer + UndefinedBehaviorSanitizer
#   bash packaging/dev.sh fuzz [S]   each parser's libFuzzer target for S seconds (default 60)
set -euo pipefail

command=${1:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${DSW_BUILD_DIR:-$root/build}
jobs=${DSW_JOBS:-$(nproc)}

packages=(build-essential cmake ninja-build pkg-config
          qt6-base-dev qt6-base-dev-tools qt6-charts-dev libgl-dev nlohmann-json3-dev
          qtbase5-dev libkf5syntaxhighlighting-dev   # Qt 5 + KF5: the KSyntaxHighlighting compatibility build
          clang libclang-rt-14-dev)                 # libFuzzer for the parsers' fuzz targets

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing build dependencies: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${DSW_BUILD_TYPE:-RelWithDebInfo}" "$@"
    cmake --build "$build" -j "$jobs"
}

case "$command" in
open)
    install_missing
    configure_and_build
    shift
    exec "$build/app/ds-wizard" "$@"
    ;;
test)
    install_missing
    configure_and_build
    QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j "$jobs"
    # The KSyntaxHighlighting adapter, compiled and tested against Qt 5 + KF5 (Debian 12 has no KF6).
    QT_QPA_PLATFORM=offscreen bash "$root/tests/kf5compat/run.sh" "$build/kf5compat"
    ;;
sanitize)
    install_missing
    build="${DSW_BUILD_DIR:-$root/build}-asan"
    DSW_BUILD_TYPE=Debug configure_and_build -DDSW_SANITIZE=ON
    # Qt's own libraries are not instrumented; their one-time allocations are not ours to report.
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
fuzz)
    install_missing
    bash "$root/tests/fuzz/run.sh" "${DSW_BUILD_DIR:-$root/build}-fuzz" "${2:-60}"
    ;;
*)
    echo "usage: bash packaging/dev.sh open [FILE.dswiz] | test | sanitize | fuzz [SECONDS]" >&2
    exit 2
    ;;
esac
