#!/bin/sh
# Cuts assets/fonts/SymbolaIcons.ttf: the few pictographs the in-app file dialog (egui_file)
# draws (folder, file, save, parent, refresh), from Symbola (George Douros; "free for any use;
# may be opened, edited, modified, regenerated, packaged and redistributed"; Debian fonts-symbola).
# Needs fonttools (pyftsubset).
set -e
pyftsubset /usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf \
    --unicodes=U+1F4C1,U+1F4C2,U+1F4BE,U+1F5C0,U+1F5CB,U+2B06,U+27F2 \
    --output-file="$(dirname "$0")/SymbolaIcons.ttf" --no-hinting --desubroutinize
