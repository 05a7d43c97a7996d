#!/bin/sh
# Every command-line writer on a real full disk: a 16 KiB tmpfs filled up. Each must exit 2 with one error
# line naming the file and "No space left on device", leave the existing file byte-identical and leave no
# temporary; once there is room again the same command succeeds (so the failures are the disk's).
# Needs to mount: root (CI), or unprivileged user namespaces. If it cannot mount it fails, never passes.
# Usage: full-disk-check.sh PATH/TO/ds-wizard
set -u
bin=${1:?usage: full-disk-check.sh PATH/TO/ds-wizard}

# A private mount namespace, so the tmpfs vanishes with this script whatever happens; root without one
# mounts directly (and unmounts on exit).
if [ -z "${DSW_FULL_DISK_NS:-}" ]; then
    export DSW_FULL_DISK_NS=1
    if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
        exec unshare -m -- sh "$0" "$@"
    elif [ "$(id -u)" != 0 ]; then
        unshare -r -m true 2>/dev/null || { echo "full-disk-check: FAILED: not root and no user namespaces (unshare -r -m): cannot mount a tmpfs; this check does not pass without one"; exit 1; }
        exec unshare -r -m -- sh "$0" "$@"
    fi
fi

work=$(mktemp -d) || exit 1
mnt=$work/full
mkdir "$mnt"
cleanup() { umount "$mnt" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
if ! mount -t tmpfs -o size=16k tmpfs "$mnt" 2>"$work/mount.err"; then
    echo "full-disk-check: FAILED: cannot mount a 16 KiB tmpfs on $mnt: $(cat "$work/mount.err")"
    echo "full-disk-check: run as root (or where user namespaces are allowed); this check does not pass without it"
    exit 1
fi

export HOME="$work" XDG_CONFIG_HOME="$work/config" QT_QPA_PLATFORM=offscreen
failures=0
fail() { echo "full-disk-check: FAILED: $*"; failures=$((failures + 1)); }

printf '{"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 2}}\n' >"$work/in.json"
printf "the user's file\n" >"$mnt/out" # every single-file writer aims at it: each page of 16 KiB counts
mkdir "$mnt/bundle"
printf 'old bundle config\n' >"$mnt/bundle/ds_config.json"
cp -a "$mnt" "$work/before"

fill() { dd if=/dev/zero of="$mnt/fill" bs=1024 2>/dev/null; sync; }
fill
[ "$(df -k "$mnt" | awk 'NR == 2 { print $4 }')" = 0 ] || fail "the tmpfs is not full"

# check NAME EXISTING-FILE-OR-FOLDER ARGS...: exit 2, one line, the path and the reason, nothing changed
check() {
    name=$1 target=$2
    shift 2
    "$bin" "$@" >"$work/out" 2>"$work/err"
    rc=$?
    [ "$rc" = 2 ] || fail "$name: exit $rc, expected 2 ($(cat "$work/err"))"
    [ "$(wc -l <"$work/err")" = 1 ] || fail "$name: expected one error line, got: $(cat "$work/err")"
    grep -q "cannot write $mnt/.*No space left on device" "$work/err" || fail "$name: the error does not name the file and the reason: $(cat "$work/err")"
    [ -s "$work/out" ] && fail "$name: printed on success's behalf: $(cat "$work/out")"
    diff -r "$work/before" "$mnt" -x fill >"$work/diff" 2>&1 || fail "$name: files changed on the full disk: $(cat "$work/diff")"
    [ -z "$(find "$mnt" -name '.*.dswiz-*')" ] || fail "$name: temporaries left: $(find "$mnt" -name '.*.dswiz-*')"
    [ -e "$target" ] || [ "$name" = "new bundle" ] || fail "$name: $target disappeared"
    echo "full-disk-check: ok: $name: $(cat "$work/err")"
}

check "import" "$mnt/out" import "$work/in.json" -o "$mnt/out"
check "export" "$mnt/out" export --to deepspeed-json -o "$mnt/out"
check "export bundle" "$mnt/bundle" export --to bundle --set hardware.nodes=2 -o "$mnt/bundle"
check "new bundle" "$mnt/new-bundle" export --to bundle -o "$mnt/new-bundle"
[ -e "$mnt/new-bundle" ] && fail "new bundle: the folder appeared on a failed export"
check "recommend" "$mnt/out" recommend -o "$mnt/out"

# With room again the same writes succeed: the failures above were the disk's, not the arguments'.
rm -f "$mnt/fill"
"$bin" import "$work/in.json" -o "$mnt/out" >/dev/null 2>"$work/err" || fail "import with room: $(cat "$work/err")"
grep -q ds-wizard-project "$mnt/out" || fail "import with room did not write the project"

if [ "$failures" != 0 ]; then
    echo "full-disk-check: $failures failure(s)"
    exit 1
fi
echo "full-disk-check: all writers failed cleanly on a full disk"
