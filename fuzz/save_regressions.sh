#!/bin/sh
# Refreshes fuzz/regressions/<target>/ (replayed by `cargo test`) from the seeds and a
# sample of each fuzzing corpus: every nth input up to 30, none over 16 KiB. Inputs that
# once crashed are added by hand, under a name that says what they were.
set -eu
cd "$(dirname "$0")"
for dir in corpus/*; do
    t=$(basename "$dir")
    mkdir -p "regressions/$t"
    cp seeds/"$t"/* "regressions/$t/" 2>/dev/null || true
    files=$(find "$dir" -type f -size -16k | sort)
    n=$(echo "$files" | grep -c . || true)
    [ "$n" -gt 0 ] || continue
    step=$(( n / 30 + 1 ))
    echo "$files" | awk -v s="$step" 'NR % s == 0' | head -n 30 | while read -r f; do cp "$f" "regressions/$t/"; done
done
