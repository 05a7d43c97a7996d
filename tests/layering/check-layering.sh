#!/usr/bin/env bash
# check-layering.sh MODELS_DIR: fails, naming file, line and include, when a file of models/ includes from a
# folder its own folder may not use. The layering (README, "Code map"):
#   util < knowledge < project < {estimate, config};  estimate < advise;  config < lint;
#   {advise, lint, config} < Plan < Pages;  advise and config/lint never include each other.
# Every include of a models/ header names its folder ("advise/ZeroAdvisor.h"); only Plan and Pages sit at
# the root, and only they may include the root. Bash, no Python: it runs on a fresh Debian machine.
set -euo pipefail
models=$(cd "${1:?usage: check-layering.sh MODELS_DIR}" && pwd)

may_include() { # the folders a file of folder $1 may include from
    case $1 in
        util) echo "util" ;;
        knowledge) echo "util knowledge" ;;
        project) echo "util knowledge project" ;;
        estimate) echo "util knowledge project estimate" ;;
        config) echo "util knowledge project config" ;;
        advise) echo "util knowledge project estimate advise" ;;
        lint) echo "util knowledge project config lint" ;;
        Plan) echo "util knowledge project estimate advise config lint Plan" ;;
        Pages) echo "util knowledge project estimate advise config lint Plan Pages" ;;
        *) echo "" ;;
    esac
}

violations=0
report() { echo "$1: includes \"$2\": $3" >&2; violations=$((violations + 1)); }
while IFS= read -r -d '' file; do
    rel=${file#"$models"/}
    if [[ $rel == */* ]]; then
        folder=${rel%%/*}
    else
        folder=${rel%.*} # Plan or Pages
    fi
    allowed=$(may_include "$folder")
    if [ -z "$allowed" ]; then
        echo "models/$rel: is in no folder of the layering (util, knowledge, project, estimate, advise, config, lint, or Plan/Pages at the root)" >&2
        violations=$((violations + 1))
        continue
    fi
    line=0
    while IFS= read -r text; do
        line=$((line + 1))
        [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        if [[ $inc == */* ]]; then
            target=${inc%%/*}
            if [ ! -e "$models/$inc" ]; then
                continue # not a models/ header (a generated or third-party one)
            fi
        elif [ -e "$models/$inc" ] && [[ $inc == Plan.h || $inc == Pages.h ]]; then
            target=${inc%.h}
        elif [ -e "$(dirname "$file")/$inc" ]; then
            report "models/$rel:$line" "$inc" "name its folder (\"folder/Name.h\", from models/)"
            continue
        else
            continue
        fi
        case " $allowed " in
            *" $target "*) ;;
            *) report "models/$rel:$line" "$inc" "$folder may include only from: $allowed" ;;
        esac
    done < "$file"
done < <(find "$models" \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z)

if [ $violations -gt 0 ]; then
    echo "check-layering: $violations include(s) cross the layering of models/" >&2
    exit 1
fi
echo "check-layering: every include of models/ follows the layering"
