#!/usr/bin/env bash
# check-details-reads.sh SOURCE_DIR: fails, naming file and line, when production code reads an advice's `details`.
# Advice::details is output only (`recommend --format json`): an advisor may write its own (`adv.details["k"] = v;`,
# `adv.details = v;`), the serialiser (models/advise/Advice.cpp) prints them, and nothing else touches them: pages and
# views read the plan's typed decisions. Comments are not code. Tests may read the output. Bash, no Python: it runs
# on a fresh Debian machine.
set -euo pipefail
src=$(cd "${1:?usage: check-details-reads.sh SOURCE_DIR}" && pwd)

violations=0
while IFS= read -r -d '' file; do
    rel=${file#"$src"/}
    case $rel in
    models/advise/Advice.h | models/advise/Advice.cpp) continue ;; # the member and its serialiser
    esac
    line=0
    while IFS= read -r text; do
        line=$((line + 1))
        code=${text%%//*} # a comment's words are not a read
        [[ $code =~ (^|[^A-Za-z0-9_])details([^A-Za-z0-9_]|$) ]] || continue
        # A write: X.details["key"] = value (the value may follow on the next line), or X.details = value.
        [[ $code =~ \.details\[\"[A-Za-z0-9_]+\"\][[:space:]]*=([^=]|$) ]] && continue
        [[ $code =~ \.details[[:space:]]*=([^=]|$) ]] && continue
        echo "$rel:$line: reads an advice's details (output only; read the plan's typed decision): ${text#"${text%%[![:space:]]*}"}" >&2
        violations=$((violations + 1))
    done <"$file"
done < <(find "$src/models" "$src/ui" "$src/app" \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z)

if [ $violations -gt 0 ]; then
    echo "check-details-reads: $violations read(s) of Advice::details outside its serialiser" >&2
    exit 1
fi
echo "check-details-reads: nothing reads Advice::details but its serialiser"
