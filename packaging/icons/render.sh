#!/usr/bin/env bash
# Renders the PNG icons from ds-wizard.svg (committed; rerun after editing the SVG).
# Needs librsvg2-bin (rsvg-convert).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for size in 48 256; do
    rsvg-convert --width "$size" --height "$size" ds-wizard.svg -o "ds-wizard-$size.png"
done
