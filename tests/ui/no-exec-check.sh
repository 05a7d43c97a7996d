#!/bin/sh
# The product runs no program and never opens the network. Runs the window (offscreen, and under
# Xvfb with the xcb platform when xvfb-run is installed: that is where D-Bus autolaunch ran
# dbus-launch) and the command line under strace, with a fresh HOME and XDG folders and no
# session bus address, and fails on any process started (an execve after the first, a fork), any
# AF_INET/AF_INET6 socket or a connect() to anything but a local (unix) socket.
# Usage: no-exec-check.sh DS_WIZARD SOURCE_DIR
set -u
wizard=$1
source_dir=$2
command -v strace >/dev/null || { echo "no-exec-check: strace is not installed (packaging/dev.sh installs it)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dsw-no-exec.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/config" "$work/cache" "$work/data" "$work/runtime"
chmod 700 "$work/runtime"
failed=0

# strace's own flags: only what can start a program or reach the network.
trace=execve,execveat,fork,vfork,clone,clone3,socket,connect

# check NAME LOG: the log of one traced run.
check() {
    name=$1
    log=$2
    bad=0
    execs=$(grep -cE '^[0-9]+ +execve(at)?\(' "$log")
    if [ "$execs" -ne 1 ]; then
        echo "FAIL $name: $execs execve calls (only the first is allowed):"
        grep -E '^[0-9]+ +execve(at)?\(' "$log" | sed 1d | head -5
        bad=1
    fi
    # Threads are clone(…CLONE_THREAD…); anything else is a new process.
    if grep -E '^[0-9]+ +(fork|vfork|clone|clone3)\(' "$log" | grep -v CLONE_THREAD | grep -q .; then
        echo "FAIL $name: a process was started:"
        grep -E '^[0-9]+ +(fork|vfork|clone|clone3)\(' "$log" | grep -v CLONE_THREAD | head -5
        bad=1
    fi
    if grep -E '^[0-9]+ +(socket\((AF_INET|AF_INET6)|connect\([0-9]+, \{sa_family=AF_INET)' "$log" | grep -q .; then
        echo "FAIL $name: a network socket:"
        grep -E '^[0-9]+ +(socket\((AF_INET|AF_INET6)|connect\([0-9]+, \{sa_family=AF_INET)' "$log" | head -5
        bad=1
    fi
    if grep -E '^[0-9]+ +connect\(' "$log" | grep -v 'sa_family=AF_UNIX' | grep -q .; then
        echo "FAIL $name: a connect() to something other than a local socket:"
        grep -E '^[0-9]+ +connect\(' "$log" | grep -v 'sa_family=AF_UNIX' | head -5
        bad=1
    fi
    if [ "$bad" -eq 0 ]; then
        echo "ok   $name: no program started, no network ($(wc -l <"$log") syscalls traced)"
    else
        failed=1
    fi
}

# The environment of a user without a session bus: libdbus would autolaunch one.
run_env() {
    env -u DBUS_SESSION_BUS_ADDRESS HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" \
        XDG_DATA_HOME="$work/data" XDG_RUNTIME_DIR="$work/runtime" "$@"
}

# window NAME [WRAPPER...]: the window on its example project for 5 s, then SIGTERM to it (by its id).
window() {
    name=$1
    shift
    log="$work/$name.log"
    run_env "$@" strace -f -qq -e trace=$trace -o "$log" "$wizard" &
    runner=$!
    # Up to 20 s for it to start (Xvfb first), then 5 s with the window open.
    tries=0
    while [ ! -s "$log" ] && [ "$tries" -lt 40 ]; do
        sleep 0.5
        tries=$((tries + 1))
    done
    sleep 5
    pid=$(sed -n '1s/^\([0-9][0-9]*\) .*/\1/p' "$log")
    if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
        echo "FAIL $name: the window did not stay up"
        tail -5 "$log"
        failed=1
        wait "$runner"
        return
    fi
    kill -TERM "$pid"
    wait "$runner" # strace exits with the window's status: killed by SIGTERM, as asked
    check "$name" "$log"
}

window "window (offscreen)" env QT_QPA_PLATFORM=offscreen
# Offscreen alone never autolaunches (Debian's libdbus refuses without $DISPLAY); a display
# named in the environment is enough for libdbus to try.
window "window (offscreen, DISPLAY set)" env QT_QPA_PLATFORM=offscreen DISPLAY=:97
if command -v xvfb-run >/dev/null; then
    window "window (xcb under Xvfb)" xvfb-run -a -s "-screen 0 1600x1000x24" env QT_QPA_PLATFORM=xcb
else
    echo "note: xvfb-run is not installed; the xcb platform was not checked"
fi

# The command line: it exits by itself.
project="$source_dir/resources/examples/llama-7b-8xA100.dswiz"
cli() {
    name=$1
    shift
    log="$work/$name.log"
    run_env strace -f -qq -e trace=$trace -o "$log" "$wizard" "$@" >"$work/$name.out" 2>&1
    rc=$?
    if [ "$rc" -gt 1 ]; then # lint exits 1 for findings
        echo "FAIL $name: exit $rc"
        cat "$work/$name.out"
        failed=1
    fi
    check "$name" "$log"
}
cli recommend recommend --project "$project" --format config -o "$work/ds_config.json"
cli lint lint "$work/ds_config.json"
cli estimate estimate --params 7B --gpus-per-node 8 --nodes 1

exit $failed
