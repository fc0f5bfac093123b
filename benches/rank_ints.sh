#!/usr/bin/env bash
# Ranked ints against the int window, side by side, on Cubicle's int models.
#
# For each file (default: Lamport's bakery and its variants, the sense barrier, from
# Cubicle's corpus; or the files given as arguments) and each size N = 1, 2, ... it runs
#   nfold check FILE --sizes N --engine explicit                  (ints ranked: after)
#   nfold check FILE --sizes N --engine explicit --no-rank-ints   (the int window, widened
#                                                                  up to --int-max 64: before)
# each with --timeout $LIMIT (default 60 s), and prints the verdict of every property,
# the states stored and the seconds, until both runs of a size fail to answer. The
# `--no-rank-ints` run is the behaviour of the branch before ranking (the same code
# path). The largest N answered within the limit is printed per file and mode.
#
# Needs the corpus unpacked: CORPUS (default /tmp/c/cubicle/examples), from
#   mkdir -p /tmp/c && tar xzf /work/shared/corpus/cubicle-3f76135.tar.gz -C /tmp/c
set -euo pipefail
cd "$(dirname "$0")/.."

LIMIT=${LIMIT:-60}
MAXN=${MAXN:-8}
CORPUS=${CORPUS:-/tmp/c/cubicle/examples}
FILES=("$@")
[ ${#FILES[@]} -gt 0 ] || FILES=(
    "$CORPUS/bakery_lamport.cub"
    "$CORPUS/bakery_lamport_na.cub"
    "$CORPUS/bakery_lamport_bogus.cub"
    "$CORPUS/sense_barrier.cub"
)
cargo build --release --quiet
NFOLD=target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one FILE N [FLAGS...]: "verdicts states seconds" of one run (verdicts joined by /).
one() {
    local f=$1 n=$2
    shift 2
    local t0 t1
    t0=$(date +%s.%N)
    "$NFOLD" check "$f" --sizes "$n" --engine explicit --timeout "$LIMIT" --json "$@" >"$tmp/out" 2>/dev/null || true
    t1=$(date +%s.%N)
    python3 - "$tmp/out" "$t0" "$t1" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    d["results"]
except Exception:
    print("error - %.2f" % (float(sys.argv[3]) - float(sys.argv[2])))
    sys.exit()
rs = [r for r in d["results"] if r["kind"] in ("unsafe", "invariant", "int_bound")]
verdicts = "/".join(
    (r["verdict"] + ("(" + r["within"] + ")" if r.get("within") else "")) for r in rs
    if r["kind"] != "int_bound") or "none"
states = max([r.get("states") or 0 for r in rs] + [0])
print("%s %s %.2f" % (verdicts, states, float(sys.argv[3]) - float(sys.argv[2])))
EOF
}

# A size is answered when every property is `holds` or `violated` (no window, no limit).
answered() { case "$1" in *within* | *unknown* | *error* | none* | *incomplete*) return 1 ;; *) return 0 ;; esac; }

for f in "${FILES[@]}"; do
    echo "== $(basename "$f")  (limit ${LIMIT}s per run)"
    printf '%4s  %-34s %10s %8s   %-34s %10s %8s\n' N "ranked verdicts" states s "window verdicts" states s
    best_r=0
    best_w=0
    for n in $(seq 1 "$MAXN"); do
        read -r vr sr tr < <(one "$f" "$n")
        read -r vw sw tw < <(one "$f" "$n" --no-rank-ints)
        printf '%4s  %-34s %10s %8s   %-34s %10s %8s\n' "$n" "$vr" "$sr" "$tr" "$vw" "$sw" "$tw"
        answered "$vr" && best_r=$n
        answered "$vw" && best_w=$n
        if ! answered "$vr" && ! answered "$vw"; then break; fi
    done
    echo "largest N answered (holds/violated) within ${LIMIT}s: ranked $best_r, window $best_w"
done
