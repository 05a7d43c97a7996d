#!/usr/bin/env bash
# Builds the fuzz targets with clang and runs each for a bounded time on its seed corpus.
# Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS_PER_TARGET]
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# DSW_LAUNCHER: the compiler launcher flags packaging/dev.sh passes (ccache), if any.
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    ${DSW_LAUNCHER:-} >/dev/null
cmake --build "$build" --parallel "${DSW_JOBS:-2}"

# Seeds: real configs (tests' corpus and shared/'s when present), the project example, OOM messages.
mkdir -p "$build/seeds/config" "$build/seeds/project" "$build/seeds/oom" "$build/seeds/diff"
cp "$root"/tests/data/configs/*.json "$build/seeds/config/" 2>/dev/null || true
cp "$root"/../shared/corpus/ds_configs/*.json "$build/seeds/config/" 2>/dev/null || true
cp "$root"/resources/examples/*.dswiz "$build/seeds/project/"
cp "$root"/tests/data/fuzz-regressions/* "$build/seeds/project/"   # inputs that once crashed
cp "$root"/tests/data/oom/* "$build/seeds/oom/" 2>/dev/null || true
# Deep nesting: 10,000 arrays where a project holds a config, an answer and an unknown key (a 17 KB
# file like the first once overflowed the stack).
n=0
deep=$(printf '%*s' 10000 '' | tr ' ' '['; printf '%*s' 10000 '' | tr ' ' ']')
for member in '"imported_config": {"a": '"$deep"'}' '"answers": {"x.y": '"$deep"'}' '"later": '"$deep"; do
    printf '{"format": "ds-wizard-project", "version": 1, %s}\n' "$member" >"$build/seeds/project/deep-$((++n)).dswiz"
done
# Diff: pairs of configs, split at a NUL byte (FuzzConfigDiff.cpp), and single configs against {}.
shopt -s nullglob
configs=("$build"/seeds/config/*.json)
shopt -u nullglob
for ((i = 0; i + 1 < ${#configs[@]} && i < 64; i += 2)); do
    { cat "${configs[i]}"; printf '\0'; cat "${configs[i + 1]}"; } >"$build/seeds/diff/pair-$i.json"
done
[ ${#configs[@]} -eq 0 ] || cp "${configs[@]}" "$build/seeds/diff/"
printf '{"zero_optimization": {"stage": 3, "overlap_comm": true}}\0{"zero_optimization": {"stage": 2}}' \
    >"$build/seeds/diff/overlap.json"

run() {
    local target=$1 seeds=$2
    mkdir -p "$build/work/$target"
    echo "fuzzing $target for ${seconds}s"
    "$build/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$build/work/$target-" \
        -print_final_stats=1 "$build/work/$target" "$build/seeds/$seeds" 2>&1 | tail -n 12
}
run FuzzConfigText config
run FuzzProjectFile project
run FuzzConfigDiff diff
run FuzzOomMessage oom
