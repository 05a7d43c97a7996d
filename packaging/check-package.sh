#!/usr/bin/env bash
# Builds the Debian package from a built BUILD_DIR (cpack -G DEB) and checks it as a user's
# machine would see it: lintian, the desktop entry, the AppStream metainfo, the MIME type, the
# man page, then the binary installed with dpkg -x into a temporary root, run headless: the commands,
# its DT_NEEDED (QtCore, no GUI library), and the window from the installed module.
#   packaging/check-package.sh BUILD_DIR
set -euo pipefail

build=${1:?usage: check-package.sh BUILD_DIR}
fail() { echo "check-package: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB >/dev/null) || fail "cpack -G DEB failed in $build"
deb=$(ls -t "$build"/ds-wizard_*.deb | head -n 1)
echo "check-package: built $(basename "$deb")"

# Dependencies come from dpkg-shlibdeps: the Qt libraries the binary links, with versions.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6core6 libqt6widgets6 libqt6charts6 libc6; do
    [[ "$depends" == *"$lib ("* ]] || fail "Depends lacks '$lib (>= …)' from dpkg-shlibdeps: $depends"
done

# --fail-on: errors and warnings both fail (none are expected; infos are listed in README).
lintian_status=0
lintian --fail-on error,warning "$deb" >"$build/lintian.log" 2>&1 || lintian_status=$?
grep -v 'running with root privileges' "$build/lintian.log" || true
[ "$lintian_status" -eq 0 ] || fail "lintian reports errors or warnings (above)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
dpkg -x "$deb" "$root"
share=$root/usr/share

desktop-file-validate "$share"/applications/*.desktop || fail "desktop-file-validate rejects the desktop entry"
appstreamcli validate --no-net "$share"/metainfo/*.metainfo.xml >/dev/null \
    || { appstreamcli validate --no-net "$share"/metainfo/*.metainfo.xml; fail "appstreamcli rejects the metainfo"; }

# The MIME type: valid shared-mime-info XML, compiled by update-mime-database into a scratch folder.
xmllint --noout "$share"/mime/packages/ds-wizard.xml || fail "the MIME package is not well-formed XML"
mkdir -p "$tmp/mime/packages"
cp "$share"/mime/packages/ds-wizard.xml "$tmp/mime/packages/"
update-mime-database "$tmp/mime" 2>/dev/null || fail "update-mime-database rejects the MIME package"
grep -qx 'application/x-ds-wizard-project:\*\.dswiz' <(cut -d: -f2- "$tmp/mime/globs2") \
    || fail "the compiled MIME database has no *.dswiz glob"
grep -qa 'ds-wizard-project' "$tmp/mime/magic" || fail "the compiled MIME database has no magic for projects"

for size in 48x48 256x256 scalable; do
    ls "$share"/icons/hicolor/$size/apps/ds-wizard.* >/dev/null || fail "no $size icon"
done
[ -f "$share"/ds-wizard/examples/llama-7b-8xA100.dswiz ] || fail "the example project is not installed"
zcat "$share"/man/man1/ds-wizard.1.gz | groff -man -Tutf8 -ww -z 2>"$tmp/groff.log" || true
[ ! -s "$tmp/groff.log" ] || { cat "$tmp/groff.log"; fail "groff warns about the man page"; }

# The installed binary, headless, with its own HOME so no settings of the user are touched.
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config QT_QPA_PLATFORM=offscreen
mkdir -p "$HOME"
version=$("$root/usr/bin/ds-wizard" --version)
[ "$version" = "ds-wizard $(dpkg-deb -f "$deb" Version)" ] || fail "--version printed '$version'"
"$root/usr/bin/ds-wizard" recommend --format text >/dev/null || fail "the installed ds-wizard recommend failed"
"$root/usr/bin/ds-wizard" recommend --project "$share"/ds-wizard/examples/llama-7b-8xA100.dswiz --format config >/dev/null \
    || fail "the installed ds-wizard cannot read the installed example"
status=0
timeout 5 "$root/usr/bin/ds-wizard" >/dev/null 2>&1 || status=$?
[ "$status" -eq 124 ] || fail "the installed window exited with status $status within 5 s (expected it to keep running)"

# The program links QtCore only; the window and every GUI library come from its private module.
readelf -d "$root/usr/bin/ds-wizard" >"$tmp/needed" || fail "readelf -d cannot read the installed ds-wizard"
qt_needed=$(sed -n 's/.*(NEEDED).*\[\(libQt[^]]*\)\].*/\1/p' "$tmp/needed" | tr '\n' ' ')
[ "$qt_needed" = "libQt6Core.so.6 " ] || fail "the installed ds-wizard needs Qt libraries '$qt_needed' (only libQt6Core.so.6 expected)"
module_path=$(dpkg-deb -c "$deb" | awk '{print $NF}' | grep '/ds-wizard/ds-wizard-window\.so$' || true)
[ "$(printf '%s\n' "$module_path" | grep -c .)" -eq 1 ] || fail "the package holds no single ds-wizard-window.so: '$module_path'"
module=$root/${module_path#./}
readelf -d "$module" | grep -q '(NEEDED).*\[libQt6Widgets' || fail "$module_path does not need libQt6Widgets: not the window module?"
# It opens the window from the installed module: offscreen, quitting once painted (app/WindowEntry.cpp's
# test hook), and the dynamic loader names the file it loaded.
status=0
DSW_TEST_QUIT_AFTER_FIRST_PAINT=1 LD_DEBUG=files timeout 60 "$root/usr/bin/ds-wizard" \
    "$share"/ds-wizard/examples/llama-7b-8xA100.dswiz >/dev/null 2>"$tmp/window.log" || status=$?
[ "$status" -eq 0 ] || { tail -5 "$tmp/window.log"; fail "the installed window did not open and paint (status $status)"; }
grep -q "file=$(realpath "$module") \[0\];  dynamically loaded by $(realpath "$root/usr/bin/ds-wizard")" "$tmp/window.log" \
    || fail "the installed window did not come from $module_path"
# Without its module, the window is one clear line naming where it looked, and exit status 1.
mv "$module" "$module.away"
status=0
"$root/usr/bin/ds-wizard" >/dev/null 2>"$tmp/missing.log" || status=$?
mv "$module.away" "$module"
[ "$status" -eq 1 ] && grep -q "its module is missing (looked for .* and $(realpath -m "$module"))" "$tmp/missing.log" \
    || { cat "$tmp/missing.log"; fail "without its module the installed ds-wizard exited $status, not 1 with the path"; }
echo "check-package: $(basename "$deb") passes lintian, desktop-file-validate, appstreamcli, update-mime-database, groff; installed binary runs, needs only libQt6Core of Qt and opens the window from $module_path"
