#!/usr/bin/env python3
"""Measures Zhiwen's OCR: character accuracy and pages per minute on pages rendered from
corpus chapters (tools/render_pages.py) under several conditions.

    tools/ocr_accuracy.py ZHIWEN DATA OUT [--chapters 10] [--only CONDITION] [--tesseract]

DATA is ../shared/data (zh-classics/<work>/<chapter>.txt). Every 7th chapter of five works
is rendered as one page per condition into OUT/<condition>/; all pages of a condition are
read by one `zhiwen text` run (the models loaded once), timed. Accuracy is
1 − Levenshtein distance / truth length, on NFKC text with whitespace ignored. Writes
OUT/<condition>.json and prints a table. With --tesseract, Tesseract's chi_sim model
(Debian's tesseract-ocr-chi-sim) reads the same pages instead, one process per page, as
the baseline (OUT/<condition>-tesseract.json).
"""
import argparse
import json
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKS = ["hongloumeng", "rulinwaishi", "guanchangxianxingji", "ershinianmudu", "liaozhaizhiyi"]
CONDITIONS = {
    "clean-28px": ["--size", "28"],
    "clean-20px": ["--size", "20"],
    "jpeg-q40-rotated-1deg": ["--size", "24", "--jpeg", "40", "--rotate", "1"],
    "scanned-noise-rotated-2deg": ["--size", "24", "--noise", "12", "--rotate", "2", "--jpeg", "60"],
}


def comparable(text):
    return [c for c in unicodedata.normalize("NFKC", text) if not c.isspace()]


def distance(a, b):
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a):
        diagonal, row[0] = row[0], i + 1
        for j, cb in enumerate(b):
            diagonal, row[j + 1] = row[j + 1], min(row[j + 1] + 1, row[j] + 1, diagonal + (ca != cb))
    return row[len(b)]


def chapters(data, per_work):
    for work in WORKS:
        files = sorted((data / "zh-classics" / work).glob("*.txt"))[::7][:per_work]
        yield from ((work, f) for f in files)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("zhiwen")
    ap.add_argument("data", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--chapters", type=int, default=10, help="chapters per work")
    ap.add_argument("--only")
    ap.add_argument("--tesseract", action="store_true")
    args = ap.parse_args()
    rows = []
    for name, options in CONDITIONS.items():
        if args.only and name != args.only:
            continue
        folder = args.out / name
        folder.mkdir(parents=True, exist_ok=True)
        pages = []
        for work, chapter in chapters(args.data, args.chapters):
            ext = ".jpg" if "--jpeg" in options else ".png"
            page = folder / f"{work}_{chapter.stem}{ext}"
            if not page.exists():
                subprocess.run([sys.executable, HERE / "render_pages.py", chapter, page, *options], check=True)
            pages.append((work, page))
        start = time.monotonic()
        if args.tesseract:
            texts = {}
            for _, page in pages:
                read = subprocess.run(["tesseract", page, "-", "-l", "chi_sim"], capture_output=True, text=True)
                texts[str(page)] = read.stdout
            seconds = time.monotonic() - start
            run = subprocess.CompletedProcess([], 0, "", "")
        else:
            run = subprocess.run([args.zhiwen, "text", *[p for _, p in pages]], capture_output=True, text=True)
            seconds = time.monotonic() - start
            texts = {}
        current = None
        for line in run.stdout.splitlines(keepends=True):
            if line.startswith("==> ") and line.rstrip().endswith(" <=="):
                current = line.rstrip()[4:-4]
                texts[current] = ""
            elif current is not None:
                texts[current] += line
        total_chars = total_errors = 0
        by_work = {}
        for work, page in pages:
            truth = comparable(page.with_suffix(".txt").read_text(encoding="utf-8"))
            errors = distance(comparable(texts.get(str(page), "")), truth)
            total_chars += len(truth)
            total_errors += errors
            w = by_work.setdefault(work, [0, 0])
            w[0] += len(truth)
            w[1] += errors
        result = {
            "condition": name,
            "pages": len(pages),
            "characters": total_chars,
            "errors": total_errors,
            "accuracy": round(1 - total_errors / max(total_chars, 1), 4),
            "seconds": round(seconds, 1),
            "pages_per_minute": round(len(pages) * 60 / seconds, 1),
            "by_work": {w: round(1 - e / max(c, 1), 4) for w, (c, e) in by_work.items()},
            "failures": run.stderr.strip().splitlines()[:5],
        }
        if args.tesseract:
            result["engine"] = "tesseract chi_sim"
        suffix = "-tesseract" if args.tesseract else ""
        (args.out / f"{name}{suffix}.json").write_text(json.dumps(result, ensure_ascii=False, indent=1))
        rows.append(result)
        print(f"{name + suffix:28} pages {result['pages']:3}  chars {total_chars:6}  accuracy {result['accuracy']:.2%}  "
              f"{result['pages_per_minute']:5.1f} pages/min", flush=True)
    return rows


if __name__ == "__main__":
    main()
