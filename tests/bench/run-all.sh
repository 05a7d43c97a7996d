#!/usr/bin/env bash
# Benchmarks of what a user feels, printed as one table (measured, never asserted: not part of ctest).
# Builds nothing: pass a build folder (Release for figures worth quoting) with these targets built:
#   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-rel --target ds-wizard BenchPlan BenchHello
#   cmake --build build-rel --target BenchWindow BenchWindowStartup BenchHelloWindow   (the window's rows)
#   tests/bench/run-all.sh build-rel [RUNS] [CORPUS_DIR]
# Rows: the whole-plan recompute (the step model's ZeRO search included; without and with lint), command
# start-up (--version, keys, estimate, recommend, lint, export, diff, import) against a QtCore-only hello
# program, `ds-wizard lint DIR` over a corpus in one call, and the large-config lint
# (tests/bench/make-large-config.py, ~4 MiB, ~133k keys) with its peak memory against Python's json.load of
# the same file. Times are wall clock per process (fork and exec included).
set -euo pipefail
build=${1:?usage: run-all.sh BUILD_DIR [RUNS] [CORPUS_DIR]}
runs=${2:-30}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpus=${3:-$here/../../../shared/corpus/ds_configs}
exec /usr/bin/python3 - "$build" "$runs" "$here" "$corpus" <<'PY'
import os, re, subprocess, sys, tempfile, time

build, runs, here, corpus = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
exe = {name: os.path.join(build, sub, name) for name, sub in
       (("ds-wizard", "app"), ("BenchPlan", "tests"), ("BenchHello", "tests"))}
for name, path in exe.items():
    if not os.access(path, os.X_OK):
        sys.exit(f"run-all.sh: {path} is missing; build it first (cmake --build {build} --target {name})")
env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
rows = []  # (what, runs, p50 ms, p99 ms, peak RSS MiB or None)


def once(cmd):
    """Wall time in ms and peak RSS in MiB of one run of cmd (its output discarded)."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return (time.perf_counter() - start) * 1000.0, usage.ru_maxrss / 1024.0, p.returncode


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def timed(what, cmd, n=runs, ok=(0, 1)):
    once(cmd)  # warm the page cache
    samples = [once(cmd) for _ in range(n)]
    codes = {c for _, _, c in samples}
    if not codes <= set(ok):
        sys.exit(f"run-all.sh: {' '.join(cmd)} exited with {sorted(codes)}")
    ms = [t for t, _, _ in samples]
    rows.append((what, n, pct(ms, 0.5), pct(ms, 0.99), max(r for _, r, _ in samples)))


# The plan, in process (BenchPlan prints "<case>: p50 X ms, p99 Y ms (N runs)").
out = subprocess.run([exe["BenchPlan"], "recomputePercentiles", "recomputeWithLintPercentiles"], env=env,
                     capture_output=True, text=True)
for line in (out.stdout + out.stderr).splitlines():
    m = re.search(r"^QINFO\s*:\s*[\w:]+(?:\([^)]*\))?\s+(.+?): p50 ([\d.]+) ms, p99 ([\d.]+) ms \((\d+) runs\)",
                  line)
    if m:
        rows.append(("plan: " + m.group(1).strip(), int(m.group(4)), float(m.group(2)), float(m.group(3)), None))

# The window, offscreen: edit -> repaint of the JSON preview over 200 edits, in process (BenchWindow prints the
# same line form as BenchPlan); start-up to the preview's first paint, as whole processes, against a bare Qt Widgets
# window that exits at its own first paint (BenchHelloWindow).
window = {name: os.path.join(build, "tests", name) for name in ("BenchWindow", "BenchWindowStartup", "BenchHelloWindow")}
for name, path in window.items():
    if not os.access(path, os.X_OK):
        sys.exit(f"run-all.sh: {path} is missing; build it first (cmake --build {build} --target {name})")
out = subprocess.run([window["BenchWindow"]], env=env, capture_output=True, text=True)
for line in (out.stdout + out.stderr).splitlines():
    m = re.search(r"^QINFO\s*:\s*[\w:]+(?:\([^)]*\))?\s+(.+?): p50 ([\d.]+) ms, p99 ([\d.]+) ms \((\d+) runs\)",
                  line)
    if m:
        rows.append(("window edit -> paint: " + m.group(1).strip(), int(m.group(4)), float(m.group(2)),
                     float(m.group(3)), None))
if out.returncode != 0:
    sys.exit(f"run-all.sh: {window['BenchWindow']} failed:\n{out.stdout}{out.stderr}")
timed("window start-up: bare Qt window (the floor)", [window["BenchHelloWindow"]], ok=(0,))
timed("window start-up: to the preview's first paint", [window["BenchWindowStartup"]], ok=(0,))

with tempfile.TemporaryDirectory() as tmp:
    small = os.path.join(tmp, "small.json")
    with open(small, "w") as f:
        f.write('{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,\n'
                ' "zero_optimization": {"stage": 2}, "bf16": {"enabled": true}}\n')
    dsw = exe["ds-wizard"]
    other = os.path.join(tmp, "other.json")
    with open(other, "w") as f:
        f.write('{"train_batch_size": 64, "zero_optimization": {"stage": 3}}\n')
    example = os.path.join(here, "..", "..", "resources", "examples", "llama-7b-8xA100.dswiz")
    # export and import write -o durably (fsync): on a tmpfs when there is one, so the row is start-up and
    # work, not the disk's flush.
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else tmp
    written = tempfile.mkdtemp(prefix="dsw-bench-", dir=shm)
    # Side by side: one run of each command in turn, so a busy machine slows all of them alike; each row
    # says its p50 as a multiple of the floor's.
    startup = [
        ("QtCore hello (the floor)", [exe["BenchHello"]], (0,)),
        ("ds-wizard --version", [dsw, "--version"], (0,)),
        ("ds-wizard keys", [dsw, "keys"], (0,)),
        ("ds-wizard estimate", [dsw, "estimate", "--params", "7e9", "--gpus-per-node", "8", "--nodes", "1"], (0,)),
        ("ds-wizard recommend", [dsw, "recommend"], (0,)),
        ("ds-wizard lint (one small file)", [dsw, "lint", small], (0, 1)),
        ("ds-wizard export (deepspeed-json)",
         [dsw, "export", "--project", example, "--to", "deepspeed-json", "-o", os.path.join(written, "out.json")], (0,)),
        ("ds-wizard diff (two small files)", [dsw, "diff", small, other], (0, 1)),
        ("ds-wizard import (one small file)", [dsw, "import", small, "-o", os.path.join(written, "in.dswiz")], (0,)),
    ]
    samples = {what: [] for what, _, _ in startup}
    for what, cmd, _ in startup:
        once(cmd)  # warm the page cache
    for _ in range(runs):
        for what, cmd, ok in startup:
            sample = once(cmd)
            if sample[2] not in ok:
                sys.exit(f"run-all.sh: {' '.join(cmd)} exited with {sample[2]}")
            samples[what].append(sample)
    subprocess.run(["rm", "-rf", written], check=True)
    floor = pct([t for t, _, _ in samples[startup[0][0]]], 0.5)
    for what, _, _ in startup:
        ms = [t for t, _, _ in samples[what]]
        rows.append((f"start-up: {what} {pct(ms, 0.5) / floor:.2f}x", runs, pct(ms, 0.5), pct(ms, 0.99),
                     max(r for _, r, _ in samples[what])))
    if os.path.isdir(corpus):
        count = len([n for n in os.listdir(corpus) if n.endswith((".json", ".conf"))])
        timed(f"lint {count} corpus configs, one call", [dsw, "lint", corpus], ok=(0, 1, 2))
    else:
        print(f"(no corpus at {corpus}: its row is left out)", file=sys.stderr)
    large = os.path.join(tmp, "large.json")
    subprocess.run([sys.executable, os.path.join(here, "make-large-config.py"), large], check=True)
    size = os.path.getsize(large)
    n = max(5, runs // 3)
    timed(f"lint large config ({size / 2**20:.2f} MiB)", [dsw, "lint", large], n=n)
    timed("  same file: python3 json.load", ["/usr/bin/python3", "-c", f"import json; json.load(open({large!r}))"],
          n=n, ok=(0,))

print(f"{'benchmark':<52} {'runs':>5} {'p50 ms':>9} {'p99 ms':>9} {'peak MiB':>9}")
for what, n, p50, p99, rss in rows:
    print(f"{what:<52} {n:>5} {p50:>9.3f} {p99:>9.3f} {'' if rss is None else f'{rss:.1f}':>9}")
print(f"(p99 of {runs} runs is their slowest but one or the slowest; large-config file: {size} bytes, "
      f"10x = {10 * size / 2**20:.1f} MiB)")
PY
