#!/usr/bin/env bash
# The aggregate (all sizes 1..N in one SAT run) against one-by-one SAT runs over the
# same sizes, same depth, same solver (CaDiCaL), default symmetry breaking, measured
# side by side in one run:
#   1. whole-run time for N = 4, 6, 8, 10, on families whose depth range is all UNSAT
#      and on families with failing sizes; ratio = one-by-one / aggregate (> 1: the
#      aggregate is faster). `aggregate` is what `--sizes 1..N --engine sat` does by
#      default (one formula, or width by width where the encoding has a case per width:
#      the families marked `w`); `whole` is `--whole-aggregate` (always one formula);
#   1b. the UNSAT families again at N = 6, 8, 10 and depths where a run takes long
#      enough to time (at the shallow depths of table 1 both modes take well under
#      0.1 s and the ratio is mostly process start-up);
#   2. formula size: clauses of the aggregate of 1..N over clauses of size N alone, at
#      the same depth, without symmetry breaking.
# Usage: benches/aggregate_compare.sh [max N, default 10]
set -euo pipefail
cd "$(dirname "$0")/.."
MAXN=${1:-10}
cargo build --release -q
NF=./target/release/nfold
t() {
  /usr/bin/time -f "%e" -o /tmp/nfold-agg-t "$NF" check "$@" --quiet > /dev/null 2>&1 || true
  tail -1 /tmp/nfold-agg-t
}
ratio() { python3 -c "a,b=float('$1'),float('$2'); print(f'{a/max(b,0.005):.2f}x')"; }

hdr() { printf "%-18s %-14s %4s %9s %7s %11s %8s %8s\n" family kind N aggregate whole one-by-one ratio whole-r; }
row() { # family kind N args...
  local f=$1 k=$2 n=$3; shift 3
  local a w o
  a=$(t families/$f.cub "$@")
  w=$(t families/$f.cub "$@" --whole-aggregate)
  o=$(t families/$f.cub "$@" --one-by-one)
  local mark=""
  { "$NF" check families/$f.cub "$@" --json 2> /dev/null || true; } | grep -q '"per-width"' && mark=" w"
  printf "%-18s %-14s %4s %9s %7s %11s %8s %8s\n" "$f" "$k$mark" "$n" "$a" "$w" "$o" "$(ratio $o $a)" "$(ratio $o $w)"
}

echo "== 1. time: aggregate vs one-by-one (seconds; ratio = one-by-one / aggregate, whole-r = one-by-one / whole)"
hdr
for spec in "mutex 12 unsat" "german 10 unsat" "mesi 12 unsat" "token_ring 10 unsat" "ticket_lock 12 unsat" \
            "peterson 12 unsat" "german_bug 10 failing" "mutex_bug 8 failing" "oddeven_sort_bug 3N failing"; do
  set -- $spec
  for N in 4 6 8 10; do
    [ "$N" -gt "$MAXN" ] && continue
    d=$2; [ "$d" = 3N ] && d=$((3 * N))
    row "$1" "$3 d=$d" "$N" --sizes 1..$N --depth $d --engine sat
  done
done

echo
echo "== 1b. time at deeper UNSAT depths (same columns)"
hdr
for spec in "mutex 20" "german 16" "mesi 20" "token_ring 40" "ticket_lock 13" "peterson 16"; do
  set -- $spec
  for N in 6 8 10; do
    [ "$N" -gt "$MAXN" ] && continue
    row "$1" "unsat d=$2" "$N" --sizes 1..$N --depth $2 --engine sat
  done
done

echo
echo "== 2. formula size: aggregate of 1..N over size N alone (clauses at depth 8, no symmetry breaking)"
printf "%-18s %4s %10s %10s %7s %s\n" family N aggregate size-N ratio "size-dependent transitions?"
clauses() {
  { "$NF" check "$@" --json --symmetry-breaking off 2> /dev/null || true; } | python3 -c "import json,sys; print(json.load(sys.stdin)['results'][0]['clauses'])"
}
for spec in "mutex no" "token_mutex no" "german no" "mesi no" "grant_mutex no" \
            "peterson yes" "token_ring yes" "ticket_lock yes" "oddeven_sort yes"; do
  set -- $spec
  N=8
  a=$(clauses families/$1.cub --sizes 1..$N --depth 8 --whole-aggregate)
  s=$(clauses families/$1.cub --size $N --depth 8)
  printf "%-18s %4s %10s %10s %7s %s\n" "$1" "$N" "$a" "$s" "$(python3 -c "print(f'{$a/$s:.2f}')")" "$2"
done
echo "(targets: <= 1.15 without size-dependent transitions, <= 2.5 with)"
