#!/usr/bin/env bash
# IC3 on `ltl` properties: the two reductions of liveness to safety side by side, on
# the same families and sizes, one aggregate run each (`nfold live --engine ic3
# --reduction R`):
#   l2s    liveness-to-safety (Biere, Artho, Schuppan 2002): a saved copy of the state,
#          the bad state "the loop closed";
#   klive  k-liveness (Claessen, Sörensson 2012): a counter of completed rounds, k = 1,
#          2, 4, ... up to 256;
#   both   k-liveness, then liveness-to-safety for the sizes it left open.
# Per run: the sizes proved (holds), refuted by a lasso (violated), left open, and the
# wall-clock seconds (nfold's JSON `seconds`; a run stopped by the timeout prints its
# limit), then the ratio of each reduction's time to l2s's (only where both answered
# every size). Sizes 1..N under weak fairness (--fair).
#
# Usage: benches/live_reduction.sh [N, default 10]
# Environment: TIMEOUT (nfold's --timeout per run, default 60s), FAMILIES (default
# "peterson ticket_lock mutex token_mutex"), REDUCTIONS (default "l2s klive both").
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10}
T=${TIMEOUT:-60s}
FAMILIES=${FAMILIES:-"peterson ticket_lock mutex token_mutex"}
REDUCTIONS=${REDUCTIONS:-"l2s klive both"}
cargo build --release -q
NF=./target/release/nfold

summary() {
  python3 -c '
import json, sys
d = json.load(sys.stdin)
held = [r["size"] for r in d["results"] if r["kind"] == "ltl" and r["verdict"] == "holds"]
bad = [r["size"] for r in d["results"] if r["kind"] == "ltl" and r["verdict"] == "violated"]
sizes = d["sizes"]
open_ = [n for n in sizes if n not in held and n not in bad]
def ph(xs):
    return ",".join(map(str, xs)) if xs else "-"
lim = d.get("limit") or ""
secs = d["seconds"]
print(f"{ph(held):>20} {ph(bad):>20} {ph(open_):>20} {secs:8.2f} {lim}")
'
}

printf "%-12s %-6s %20s %20s %20s %8s\n" family red holds violated open seconds
declare -A secs
for f in $FAMILIES; do
  for r in $REDUCTIONS; do
    line=$($NF live "families/$f.cub" --sizes "1..$N" --fair --engine ic3 \
      --reduction "$r" --timeout "$T" --json 2> /dev/null | summary || true)
    printf "%-12s %-6s %s\n" "$f" "$r" "$line"
    set -- $line ""
    # Complete only when no size is left open and no limit stopped the run.
    if [ "${3:-}" = "-" ] && [ -z "${5:-}" ]; then secs[$f.$r]=$4; fi
  done
done
echo
echo "time / l2s's time (only where both answered every size):"
for f in $FAMILIES; do
  for r in $REDUCTIONS; do
    a=${secs[$f.$r]:-}; b=${secs[$f.l2s]:-}
    if [ -n "$a" ] && [ -n "$b" ]; then
      printf "  %-12s %-6s %6.2fx\n" "$f" "$r" "$(python3 -c "print($a / $b)")"
    else
      printf "  %-12s %-6s %7s\n" "$f" "$r" "-"
    fi
  done
done
