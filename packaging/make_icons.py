#!/usr/bin/env python3
"""Makes packaging/icons/NxN/zhiwen.png, the hicolor sizes the .deb and the AppDir
install, from the app icon assets/icons/zhiwen.png (256 px, drawn by
assets/icons/make_icon.py). Needs Pillow. Run again after the icon changes."""
import pathlib
from PIL import Image

here = pathlib.Path(__file__).parent
source = Image.open(here.parent / "assets" / "icons" / "zhiwen.png").convert("RGBA")
for size in (16, 22, 24, 32, 48, 64, 128, 256):
    out = here / "icons" / f"{size}x{size}" / "zhiwen.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    icon = source if size == source.width else source.resize((size, size), Image.LANCZOS)
    icon.save(out, optimize=True)
    print(out.relative_to(here.parent))
