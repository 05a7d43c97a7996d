#!/usr/bin/env bash
# ds-wizard set-up on Debian 12: installs what the build needs with apt when it is missing, builds,
# then opens the app ("open") or runs every test ("test").
#   bash packaging/dev.sh open [FILE.dswiz]
#   bash packaging/dev.sh test
# CI also runs:
#   bash packaging/dev.sh sanitize   the suite once under AddressSanitizer + UndefinedBehaviorSanitizer
#   bash packaging/dev.sh fuzz [S]   each parser's libFuzzer target for S seconds (default 60)
#   bash packaging/dev.sh package    the Debian package, built from the test build and checked
# With DSW_CHECK_DEPS=1 (CI) each configure is followed by packaging/check-build-deps.sh.
set -euo pipefail

command=${1:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${DSW_BUILD_DIR:-$root/build}
jobs=${DSW_JOBS:-$(nproc)}

# What each command needs: packaging/build-deps.txt (packaging/check-build-deps.sh proves it complete).
packages_for() {
    sed -e 's/#.*//' "$root/packaging/build-deps.txt" | awk -v cmd="$1" 'NF > 1 { for (i = 2; i <= NF; i++) if ($i == cmd) print $1 }'
}

install_missing() {
    local missing=() p
    for p in $(packages_for "$command"); do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing build dependencies: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# CI (DSW_CHECK_DEPS=1) proves, right after each configure, that the packages this command installs
# bring everything the build found: a machine that already has more cannot hide a missing one.
check_deps() {
    [ "${DSW_CHECK_DEPS:-0}" = 1 ] || return 0
    bash "$root/packaging/check-build-deps.sh" --command "$command" "$@"
}

# ccache, where installed (the test, sanitize, fuzz and package commands install it): a build that compiled the same
# source with the same flags before, in this clone or an earlier one, takes the object from the cache. Paths are
# hashed relative to the clone, so a fresh clone in the same place hits too.
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi

configure_and_build() {
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${DSW_BUILD_TYPE:-RelWithDebInfo}" \
        ${launcher[@]+"${launcher[@]}"} "$@"
    check_deps "$build" ${check_files[@]+"${check_files[@]}"}
    cmake --build "$build" -j "$jobs"
}
check_files=()

case "$command" in
open)
    install_missing
    configure_and_build -DDSW_BUILD_TESTS=OFF # the app alone; "test" turns them back on
    shift
    exec "$build/app/ds-wizard" "$@"
    ;;
test)
    install_missing
    check_files=(--file "$(command -v strace)" --file "$(command -v xvfb-run)" --file "$(command -v xauth)"
        --file "$(command -v ccache)")
    configure_and_build -DDSW_BUILD_TESTS=ON
    QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j "$jobs"
    # The KSyntaxHighlighting adapter, compiled and tested against Qt 5 + KF5 (Debian 12 has no KF6).
    QT_QPA_PLATFORM=offscreen bash "$root/tests/kf5compat/run.sh" "$build/kf5compat"
    check_deps "$build/kf5compat"
    ;;
sanitize)
    install_missing
    build="${DSW_BUILD_DIR:-$root/build}-asan"
    check_files=(--file "$(g++ -print-file-name=libasan.so)" --file "$(g++ -print-file-name=libubsan.so)"
        --file "$(command -v ccache)")
    DSW_BUILD_TYPE=Debug configure_and_build -DDSW_SANITIZE=ON
    # Qt's own libraries are not instrumented; their one-time allocations are not ours to report. The script checks
    # (label "script": the layering and details checks, the install-list proof, the no-exec check under strace) read
    # sources or packages rather than run our code's memory: "test" ran them once.
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE script
    ;;
fuzz)
    install_missing
    DSW_LAUNCHER="${launcher[*]+"${launcher[*]}"}" bash "$root/tests/fuzz/run.sh" "${DSW_BUILD_DIR:-$root/build}-fuzz" "${2:-60}"
    check_deps "${DSW_BUILD_DIR:-$root/build}-fuzz" --file "$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a)" \
        --file "$(command -v ccache)"
    ;;
package)
    # The Debian package from the test build (cpack -G DEB), checked with lintian, the desktop,
    # AppStream and MIME validators, and run from a dpkg -x root.
    install_missing
    for tool in dpkg-shlibdeps file lintian desktop-file-validate appstreamcli xmllint update-mime-database groff ccache; do
        check_files+=(--file "$(command -v "$tool")")
    done
    configure_and_build -DDSW_BUILD_TESTS=ON
    bash "$root/packaging/check-package.sh" "$build"
    ;;
*)
    echo "usage: bash packaging/dev.sh open [FILE.dswiz] | test | sanitize | fuzz [SECONDS] | package" >&2
    exit 2
    ;;
esac
