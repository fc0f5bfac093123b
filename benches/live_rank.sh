#!/usr/bin/env bash
# Ranking proofs of starvation freedom under weak fairness (`nfold live --fair`, auto's
# phase 0, src/rank/) side by side with the explicit fair SCC search, in one run:
#   1. auto on sizes 1..MAX (default 10): every size's verdict and the seconds of the
#      whole run and of each size (JSON `seconds`), wall and CPU (/usr/bin/time);
#   2. the explicit engine (`--engine explicit`) size by size from 1, each within
#      LIMIT seconds (default 60): the largest size it answers completely, its states
#      and seconds;
#   3. `nfold certify` of the certificates auto wrote.
# Needs a release build (cargo build --release). Usage:
#   benches/live_rank.sh [MODEL] [MAX] [LIMIT]
set -euo pipefail
cd "$(dirname "$0")/.."
NFOLD=${NFOLD:-target/release/nfold}
MODEL=${1:-families/peterson.cub}
MAX=${2:-10}
LIMIT=${3:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== 1. auto (ranking proofs first), $MODEL, sizes 1..$MAX, --fair"
/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$NFOLD" live "$MODEL" --sizes "1..$MAX" --fair \
    --json --certificate "$tmp/cert" > "$tmp/auto.json" || true
python3 - "$tmp/auto.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    how = (r.get("proof") or {}).get("how", "")
    print(f'  size {r["size"]:>2}  {r["verdict"]:<10} {r["engine"]:<8} {r["seconds"]:7.2f}s  {how}')
PY
read -r wall user sys < "$tmp/time"
echo "  whole run: ${wall}s wall, $(python3 -c "print(round($user + $sys, 2))")s CPU"

echo "== 2. explicit fair SCC search, one size at a time, ${LIMIT}s each"
best=0
for n in $(seq 1 "$MAX"); do
    set +e
    timeout "$LIMIT" "$NFOLD" live "$MODEL" --size "$n" --fair --engine explicit --json \
        > "$tmp/x.json" 2>/dev/null
    code=$?
    set -e
    # 0: holds, 1: violated (both answered); 124: the time limit.
    if [ "$code" = 124 ]; then echo "  size $n: not answered within ${LIMIT}s"; break; fi
    if [ "$code" -gt 1 ]; then echo "  size $n: exit $code"; break; fi
    python3 - "$tmp/x.json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
print(f'  size {sys.argv[2]:>2}  {r["verdict"]:<10} {r.get("states", "?")} states  {r["seconds"]:.2f}s')
PY
    best=$n
done
echo "  largest size answered completely: $best"

echo "== 3. nfold certify of auto's certificates"
/usr/bin/time -f "  %e s wall" "$NFOLD" certify "$MODEL" "$tmp/cert" | tail -1
