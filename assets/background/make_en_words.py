#!/usr/bin/env python3
"""Writes en-words.tsv: the background frequencies of common English words that
zhiwen's rarity weighting uses (engine/rarity.rs).

Source: the 13 public-domain Project Gutenberg books of ../shared/data/en-gutenberg/books
(about 1.6 million words). Words are split as zhiwen's tokenizer splits them (runs of
letters and digits, lower-cased). Only words used in at least 5 of the 13 books are kept,
so that names (Holmes, Gatsby, Quixote) do not pass for common words; the 3,000 most
frequent of those are written, with their frequency per million words.

Usage: python3 make_en_words.py ../../../shared/data/en-gutenberg/books > en-words.tsv
"""
import collections
import pathlib
import re
import sys

books = sorted(pathlib.Path(sys.argv[1]).glob("*.txt"))
counts = collections.Counter()
seen_in = collections.Counter()
for book in books:
    words = [w.lower() for w in re.findall(r"[^\W_]+", book.read_text(encoding="utf-8"))]
    counts.update(words)
    seen_in.update(set(words))
total = sum(counts.values())
common = [(w, n) for w, n in counts.most_common() if seen_in[w] >= 5 and not w.isdigit()][:3000]
print(f"# {len(books)} books, {total} words; word\tper million")
for w, n in common:
    print(f"{w}\t{n * 1e6 / total:.1f}")
