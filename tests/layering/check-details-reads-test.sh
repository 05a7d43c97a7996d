#!/usr/bin/env bash
# Proves check-details-reads.sh fails, naming file and line, on a planted read of Advice::details: on a copy of
# models/, ui/ and app/, each line below is added to one file, and the check must exit non-zero and name the file
# and the line; the unchanged copy and a planted write must pass (so a check that fails on everything fails here).
# Usage: check-details-reads-test.sh SOURCE_DIR
set -uo pipefail
src=$(cd "${1:?usage: check-details-reads-test.sh SOURCE_DIR}" && pwd)
check=$src/tests/layering/check-details-reads.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

copy() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree"
    cp -r "$src/models" "$src/ui" "$src/app" "$work/tree/"
}

copy
if ! bash "$check" "$work/tree" >"$work/clean.out" 2>&1; then
    echo "FAIL: the unchanged tree does not pass:"; cat "$work/clean.out"; failed=1
fi
copy
echo '    adv.details["planted"] = 1; // a write is allowed' >>"$work/tree/models/advise/ZeroAdvisor.cpp"
if ! bash "$check" "$work/tree" >"$work/write.out" 2>&1; then
    echo "FAIL: a planted write was refused:"; cat "$work/write.out"; failed=1
fi

# file that gets the line | the line
while IFS='|' read -r file planted; do
    copy
    printf '%s\n' "$planted" >>"$work/tree/$file"
    lines=$(wc -l <"$work/tree/$file")
    if bash "$check" "$work/tree" >"$work/out" 2>&1; then
        echo "FAIL: $file with \"$planted\" passed the check"; failed=1
    elif ! grep -qF "$file:$lines:" "$work/out"; then
        echo "FAIL: $file with \"$planted\" failed without naming $file:$lines:"; cat "$work/out"; failed=1
    else
        echo "ok: $(grep -F "$file:$lines:" "$work/out" | head -1)"
    fi
done <<'PLANTED'
models/advise/PipelineAdvisor.cpp|    const int stage = zero.details["recommended"]["stage"].get<int>();
ui/StageTable.cpp|    const auto& rows = zero.details.at("stage_table");
app/MainWindow.cpp|    if (memory->details.contains("steps")) {}
models/Pages.cpp|    const oj& d = advice.details;
models/advise/ZeroAdvisor.cpp|    if (adv.details["fits"] == true) {}
PLANTED
exit $failed
