#!/bin/sh
# Rebuilds the embedded font subsets from Debian's fonts-dejavu-core 2.37
# (apt-get install fonts-dejavu-core; pip install fonttools==4.*).
# Kept: Latin (with Latin-1 and Extended-A/B), Greek, Cyrillic (with the Kazakh letters
# ә ғ қ ң ө ұ ү һ і) and the punctuation, arrows and shapes the board draws.
# Everything else (emoji, CJK, ...) is left out: the renderer skips glyphs the font lacks.
set -eu
src=${DEJAVU_DIR:-/usr/share/fonts/truetype/dejavu}
out=$(dirname "$0")
unicodes="U+0020-024F,U+0370-03FF,U+0400-052F,U+2000-206F,U+20AC,U+2116,U+2190-21FF,U+2212,U+2500-257F,U+25A0-25FF,U+2605"
for face in DejaVuSans DejaVuSans-Bold; do
    pyftsubset "$src/$face.ttf" --unicodes="$unicodes" \
        --layout-features='kern,liga' --no-hinting --desubroutinize \
        --name-IDs='*' --name-languages='*' --notdef-outline \
        --output-file="$out/$face-subset.ttf"
done
