#!/usr/bin/env bash
# `auto` on every shipped family at sizes 1..N, on one core (`--threads 1`, the
# sequential auto: explicit search, then BMC and IC3 one after the other) and on two
# (`--threads 2`: the explicit search beside the aggregate run, the first complete
# answer wins), side by side in one run, interleaved (issue 28: "auto never slower
# than the sequential auto by more than 5 %, and >= 1.5x faster where two engines
# both have work"). Per family: the wall seconds of each (median of RUNS runs), the
# ratio t1 / t2, and whether the rows (size, property, verdict, depth) agree (they must: only the time may
# differ). LIMIT bounds each run (a run at the limit is marked `>`).
# Usage: benches/auto_threads.sh [N, default 10]   (on 2 idle cores; RUNS=1 default)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10}
RUNS=${RUNS:-1}
LIMIT=${LIMIT:-300}
cargo build --release --quiet
NFOLD=target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one RUN FILE THREADS: wall seconds; the rows (size, property, verdict) to $tmp/rows.T
one() {
    local f=$1 t=$2 s e
    s=$(date +%s.%N)
    timeout "$LIMIT" "$NFOLD" check "$f" --sizes "1..$N" --threads "$t" --json --quiet \
        >"$tmp/out.$t" 2>/dev/null || true
    e=$(date +%s.%N)
    python3 - "$tmp/out.$t" >"$tmp/rows.$t" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("no JSON (limit or error)"); sys.exit()
print(sorted((r["size"], r["property"], r["verdict"], r["depth"]) for r in d["results"]))
PY
    echo "$e - $s" | bc
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '| family | 1 thread (s) | 2 threads (s) | ratio | rows agree |\n|---|---|---|---|---|\n'
for f in families/*.cub; do
    : >"$tmp/t1"; : >"$tmp/t2"
    for _ in $(seq "$RUNS"); do
        one "$f" 1 >>"$tmp/t1"
        one "$f" 2 >>"$tmp/t2"
    done
    a=$(median <"$tmp/t1"); b=$(median <"$tmp/t2")
    agree=$(cmp -s "$tmp/rows.1" "$tmp/rows.2" && echo yes || echo "**no**")
    mark1=$(awk -v x="$a" -v l="$LIMIT" 'BEGIN{print (x>=l-0.5)?">":""}')
    mark2=$(awk -v x="$b" -v l="$LIMIT" 'BEGIN{print (x>=l-0.5)?">":""}')
    printf '| %s | %s%.2f | %s%.2f | %.2f× | %s |\n' "$(basename "$f")" "$mark1" "$a" "$mark2" "$b" \
        "$(echo "$a / $b" | bc -l)" "$agree"
done
