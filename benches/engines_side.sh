#!/usr/bin/env bash
# Engines side by side on one family and size range (docs/benchmarks.md, "Engines side
# by side"; the README's figures for German 1..8 come from here):
#   nfold check F --sizes A..B --engine E --json      for E in explicit, ic3, auto
# each run once with /usr/bin/time (wall seconds, peak resident memory), plus the size B
# alone with the explicit engine. Prints a Markdown table: wall time, peak memory, and
# how the sizes were answered (states of the largest size, lemmas of the invariant).
#
# Usage: benches/engines_side.sh [FAMILY] [A..B]    (default families/german.cub 1..8)
# LIMIT (seconds, default 600) bounds each run.
set -euo pipefail
cd "$(dirname "$0")/.."

F=${1:-families/german.cub}
R=${2:-1..8}
B=${R#*..}
LIMIT=${LIMIT:-600}
[ -x /usr/bin/time ] || { echo "engines_side: /usr/bin/time is missing (Debian: time)" >&2; exit 2; }
cargo build --release --quiet
NFOLD=target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run LABEL ARGS...: one timed run, one table row.
run() {
    local label=$1; shift
    /usr/bin/time -f '%e %M' -o "$tmp/time" timeout "$LIMIT" "$NFOLD" check "$F" "$@" --json --quiet \
        >"$tmp/out" 2>/dev/null || true
    read -r wall kib < <(tail -1 "$tmp/time")
    how=$(python3 - "$tmp/out" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("no answer (limit)"); sys.exit()
rs = d["results"]
by = {}
for r in rs:
    by.setdefault(r["engine"], []).append(r)
parts = []
for e, rows in by.items():
    sizes = sorted({r["size"] for r in rows})
    verdicts = sorted({r["verdict"] for r in rows})
    lemmas = max([(r.get("proof") or {}).get("lemmas") or 0 for r in rows] or [0])
    states = max([r.get("states") or 0 for r in rows] or [0])
    fig = f"{lemmas} lemmas" if lemmas else f"{states:,} states at size {sizes[-1]}"
    parts.append(f"{e}: sizes {sizes[0]}..{sizes[-1]} {'/'.join(verdicts)}, {fig}")
print("; ".join(parts))
PY
)
    printf '| %s | %.2f s | %.0f MiB | %s |\n' "$label" "$wall" "$(echo "$kib / 1024" | bc -l)" "$how"
}

echo "$F, sizes $R (one run each, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the start)"
echo
echo "| engine | wall time | peak memory | how |"
echo "|---|---|---|---|"
run "\`--engine explicit\`" --sizes "$R" --engine explicit
run "\`--engine explicit\`, size $B alone" --size "$B" --engine explicit
run "\`--engine ic3\`" --sizes "$R" --engine ic3
run "\`--engine auto\` (default)" --sizes "$R"
