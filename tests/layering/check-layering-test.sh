#!/usr/bin/env bash
# Proves check-layering.sh fails, naming the file and the include, on a planted violation: on a copy of
# models/, each bad include below is added to one file, and the check must exit non-zero and name both;
# the unchanged copy must pass (so a check that fails on everything fails here too).
# Usage: check-layering-test.sh SOURCE_DIR
set -uo pipefail
src=$(cd "${1:?usage: check-layering-test.sh SOURCE_DIR}" && pwd)
check=$src/tests/layering/check-layering.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

cp -r "$src/models" "$work/clean"
if ! bash "$check" "$work/clean" >"$work/clean.out" 2>&1; then
    echo "FAIL: the unchanged models/ does not pass:"; cat "$work/clean.out"; failed=1
fi

# file that gets the include | the include | why it is forbidden
while IFS='|' read -r file include why; do
    rm -rf "$work/planted"
    cp -r "$src/models" "$work/planted"
    printf '#include "%s"\n' "$include" >> "$work/planted/$file"
    if bash "$check" "$work/planted" >"$work/out" 2>&1; then
        echo "FAIL: $file including \"$include\" ($why) passed the check"; failed=1
    elif ! grep -F "models/$file:" "$work/out" | grep -qF "\"$include\""; then
        echo "FAIL: $file including \"$include\" ($why) failed without naming file and include:"; cat "$work/out"; failed=1
    else
        echo "ok: $(grep -F "models/$file:" "$work/out" | head -1)"
    fi
done <<'PLANTED'
advise/ZeroAdvisor.cpp|lint/ConfigLinter.h|advise and lint never include each other
config/ConfigDiff.cpp|advise/Advice.h|advise and config never include each other
util/Count.cpp|knowledge/GpuCatalog.h|util comes first
estimate/ZeroPaperMemory.h|advise/ZeroAdvisor.h|estimate comes before advise
lint/ValueLint.cpp|Plan.h|only Pages may include Plan
Plan.cpp|Pages.h|Plan comes before Pages
advise/ZeroAdvisor.cpp|ZeroAdvisor.h|includes name the folder
PLANTED
exit $failed
