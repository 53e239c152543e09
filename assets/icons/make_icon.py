#!/usr/bin/env python3
"""Renders assets/icons/zhiwen.png (the app icon) from the shipped font. Needs Pillow."""
import pathlib
from PIL import Image, ImageDraw, ImageFont

here = pathlib.Path(__file__).parent
size = 256
img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
d = ImageDraw.Draw(img)
d.rounded_rectangle((8, 8, size - 8, size - 8), radius=48, fill=(178, 34, 52, 255))
# Fingerprint ridges: concentric arcs around the lower centre.
for i, r in enumerate(range(30, 118, 14)):
    d.arc((128 - r, 150 - r, 128 + r, 150 + r), start=200 - i * 3, end=340 + i * 3, fill=(255, 255, 255, 90), width=6)
font = ImageFont.truetype(str(here.parent / "fonts" / "NotoSansSC-Zhiwen.otf"), 150)
d.text((size / 2, size / 2 + 6), "指", font=font, fill=(255, 255, 255, 255), anchor="mm")
img.save(here / "zhiwen.png")
