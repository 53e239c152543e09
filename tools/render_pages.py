#!/usr/bin/env python3
"""Renders text as page images, the way a pirate posts a chapter as pictures or a scanner
makes a PDF: a CJK font (Noto Serif CJK), a size, optional rotation, scanner noise and
JPEG compression. Writes the image (or a one-page-per-image PDF) and, beside it, the text
that was drawn (NAME.txt), the truth OCR is measured against.

    tools/render_pages.py CHAPTER.txt OUT.png [--size 28] [--rotate 1] [--noise 8]
                          [--jpeg 40] [--width 1000] [--height 1400] [--chars 400] [--pdf]

Needs Pillow and fonts-noto-cjk (Debian).
"""
import argparse
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONTS = [
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
]
# Index 2 of the Noto CJK collections is the Simplified Chinese face.
SC_INDEX = 2


def font(size):
    for path in FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, size, index=SC_INDEX)
    sys.exit("no Noto CJK font (apt-get install fonts-noto-cjk)")


def wrap(text, face, width):
    """Lines that fit `width` pixels, breaking anywhere (CJK has no spaces); paragraph
    breaks kept as line breaks."""
    lines = []
    for paragraph in text.splitlines():
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        line = ""
        for ch in paragraph:
            if face.getlength(line + ch) > width and line:
                lines.append(line)
                line = ch
            else:
                line += ch
        if line:
            lines.append(line)
    return lines


def render(text, size, width, height, margin=60):
    """Pages (images) and the lines drawn on each."""
    face = font(size)
    lines = wrap(text, face, width - 2 * margin)
    step = int(size * 1.6)
    per_page = max(1, (height - 2 * margin) // step)
    pages = []
    for start in range(0, len(lines), per_page):
        chunk = lines[start:start + per_page]
        page = Image.new("RGB", (width, height), "white")
        draw = ImageDraw.Draw(page)
        for i, line in enumerate(chunk):
            draw.text((margin, margin + i * step), line, font=face, fill=(20, 20, 20))
        pages.append((page, chunk))
    return pages


def degrade(page, rotate, noise, rng):
    if rotate:
        page = page.rotate(rotate, resample=Image.BICUBIC, expand=False, fillcolor="white")
    if noise:
        # Scanner grain: Gaussian noise, a slight blur and grey paper.
        pixels = page.load()
        w, h = page.size
        for y in range(h):
            for x in range(w):
                r, g, b = pixels[x, y]
                d = int(rng.gauss(0, noise))
                pixels[x, y] = tuple(max(0, min(255, c - 12 + d)) for c in (r, g, b))
        page = page.filter(ImageFilter.GaussianBlur(0.6))
    return page


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("text")
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=28)
    ap.add_argument("--rotate", type=float, default=0.0)
    ap.add_argument("--noise", type=float, default=0.0)
    ap.add_argument("--jpeg", type=int, default=0, help="JPEG quality (0: PNG, or the extension's format)")
    ap.add_argument("--width", type=int, default=1000)
    ap.add_argument("--height", type=int, default=1400)
    ap.add_argument("--chars", type=int, default=0, help="only the first N characters of the text")
    ap.add_argument("--pdf", action="store_true", help="a PDF of JPEG page images (a scan), every page")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    text = Path(args.text).read_text(encoding="utf-8")
    if args.chars:
        text = text[: args.chars]
    rng = random.Random(args.seed)
    pages = render(text, args.size, args.width, args.height)
    if not args.pdf:
        pages = pages[:1]
    images = [degrade(page, args.rotate, args.noise, rng) for page, _ in pages]
    out = Path(args.out)
    if args.pdf:
        # Pillow writes each page as a DCTDecode (JPEG) image with no text layer.
        images[0].save(out, "PDF", save_all=True, append_images=images[1:], resolution=150.0,
                       quality=args.jpeg or 75)
    elif args.jpeg:
        images[0].save(out, "JPEG", quality=args.jpeg)
    else:
        images[0].save(out)
    truth = "\n".join(line for _, lines in pages for line in lines) + "\n"
    out.with_suffix(".txt").write_text(truth, encoding="utf-8")


if __name__ == "__main__":
    main()
