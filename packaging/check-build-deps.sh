#!/usr/bin/env bash
# Proves the install list complete: everything a configured build found under /usr (the CMake
# package configs in CMakeCache.txt's *_DIR entries, the compilers, tools and libraries in its
# FILEPATH entries, and any --file given) belongs, by `dpkg -S`, to a package that
# packaging/build-deps.txt lists or that one of those depends on (`apt-cache depends --recurse`,
# without recommends or suggests) — what a fresh Debian 12 machine gets from packaging/dev.sh.
#
#   packaging/check-build-deps.sh [--command CMD] [--deps FILE] [--without PKG]... [--file PATH]... BUILD_DIR...
#
# --command takes only the packages dev.sh installs for CMD (open, test, sanitize, fuzz, package);
# --without drops a package from the list (the check's own test uses it). Exit 0 when complete,
# 1 naming each missing package and what needed it, 2 on bad usage.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_file=$root/packaging/build-deps.txt
command=""
without=()
files=()
builds=()
while [ $# -gt 0 ]; do
    case "$1" in
    --command) command=${2:?--command needs a dev.sh command}; shift 2 ;;
    --deps) deps_file=${2:?--deps needs a file}; shift 2 ;;
    --without) without+=("${2:?--without needs a package}"); shift 2 ;;
    --file) files+=("${2:?--file needs a path}"); shift 2 ;;
    -*) echo "check-build-deps: unknown option '$1'" >&2; exit 2 ;;
    *) builds+=("$1"); shift ;;
    esac
done
if [ ${#builds[@]} -eq 0 ] && [ ${#files[@]} -eq 0 ]; then
    echo "usage: check-build-deps.sh [--command CMD] [--deps FILE] [--without PKG]... [--file PATH]... BUILD_DIR..." >&2
    exit 2
fi

listed=()
while read -r package commands; do
    [ -z "$package" ] || [[ "$package" == \#* ]] && continue
    [ -z "$command" ] || [[ " $commands " == *" $command "* ]] || continue
    skip=0
    for w in "${without[@]+"${without[@]}"}"; do [ "$w" = "$package" ] && skip=1; done
    [ $skip -eq 0 ] && listed+=("$package")
done < "$deps_file"

# What installing the list brings: the packages and everything they depend on, recursively.
closure=$(mktemp)
trap 'rm -f "$closure"' EXIT
if ! apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances "${listed[@]}" 2>/dev/null \
        | grep -v '^ ' | tr -d '<>' | sort -u > "$closure" || [ ! -s "$closure" ]; then
    echo "check-build-deps: apt-cache knows none of the listed packages; run 'apt-get update' first" >&2
    exit 2
fi

# Whether the generated build (Ninja or Makefiles) runs or links PATH, the value of cache entry NAME.
uses() {
    local build=$1 name=$2 path=$3
    case "$name" in CMAKE_CXX_COMPILER | CMAKE_C_COMPILER | CMAKE_MAKE_PROGRAM) return 0 ;; esac
    if [ -f "$build/build.ninja" ]; then
        grep -qF -- "$path" "$build/build.ninja"
    else
        find "$build" -name link.txt -o -name build.make | xargs -r grep -qF -- "$path"
    fi
}

# "needs" lines: PATH<TAB>what needed it.
needs=()
for build in "${builds[@]+"${builds[@]}"}"; do
    cache=$build/CMakeCache.txt
    if [ ! -f "$cache" ]; then
        echo "check-build-deps: $cache does not exist: configure that build first" >&2
        exit 2
    fi
    while IFS= read -r line; do
        name=${line%%:*}
        value=${line#*=}
        case "$name" in CMAKE_INSTALL_*) continue ;; esac
        [[ "$value" == /usr/* && "$value" != /usr/local/* && "$value" != *-NOTFOUND ]] || continue
        if [[ "$line" == *_DIR:PATH=* ]]; then
            # A CMake package: the config file in that folder is what a package ships.
            package=${name%_DIR}
            config=$(ls "$value"/*Config.cmake "$value"/*-config.cmake 2>/dev/null | head -n 1 || true)
            [ -n "$config" ] || config=$value
            needs+=("$config"$'\t'"CMake package $package ($name in $cache)")
        elif [[ "$line" == *:FILEPATH=* ]] && uses "$build" "$name" "$value"; then
            # A compiler, tool or library the build runs or links (found but unused ones are not needed).
            needs+=("$(readlink -f "$value")"$'\t'"$name in $cache")
        fi
    done < "$cache"
done
for f in "${files[@]+"${files[@]}"}"; do
    needs+=("$(readlink -f "$f")"$'\t'"--file $f")
done

# One dpkg -S for every path: "owner[:arch][, owner…]: path" per owned path.
declare -A owners_of=()
paths=()
for entry in "${needs[@]}"; do paths+=("${entry%%$'\t'*}"); done
while IFS= read -r line; do
    [[ "$line" == diversion* ]] && continue
    owners_of["${line#*: }"]=$(echo "${line%%: *}" | tr ',' '\n' | sed 's/^ *//; s/:[a-z0-9]*$//' | sort -u | tr '\n' ' ')
done < <(dpkg -S "${paths[@]}" 2>/dev/null || true)
# With merged /usr, dpkg knows /bin/gzip as /bin/gzip, not /usr/bin/gzip.
for path in "${paths[@]}"; do
    if [ -z "${owners_of[$path]:-}" ] && [[ "$path" == /usr/* ]]; then
        owner=$(dpkg -S "${path#/usr}" 2>/dev/null | grep -v '^diversion' | head -n 1 || true)
        [ -n "$owner" ] && owners_of[$path]=$(echo "${owner%%: *}" | tr ',' '\n' | sed 's/^ *//; s/:[a-z0-9]*$//' | sort -u | tr '\n' ' ')
    fi
done

missing=0
for entry in "${needs[@]}"; do
    path=${entry%%$'\t'*}
    why=${entry#*$'\t'}
    owners=${owners_of[$path]:-}
    if [ -z "$owners" ]; then
        echo "check-build-deps: $path ($why) belongs to no Debian package; the build must find it in one that packaging/build-deps.txt installs" >&2
        missing=1
        continue
    fi
    found=0
    for owner in $owners; do
        grep -qxF "$owner" "$closure" && found=1
    done
    if [ $found -eq 0 ]; then
        echo "check-build-deps: missing package $(echo $owners | tr ' ' '|'): it provides $path, needed by $why;" \
             "nothing that $(basename "$deps_file") lists${command:+ for '$command'} installs it or depends on it." \
             "Add it to $deps_file${command:+ with '$command' among its commands}." >&2
        missing=1
    fi
done
if [ $missing -ne 0 ]; then
    exit 1
fi
echo "check-build-deps: ${#needs[@]} files the builds use come from the ${#listed[@]} listed packages or their dependencies"
