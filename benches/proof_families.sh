#!/usr/bin/env bash
# Proofs of the correct shipped families at sizes 1..N in one run (issue: "sizes 1..10
# proved in one run, each in under 10 s"), beside the explicit engine.
#
# For each family it measures, with /usr/bin/time (user + system CPU seconds):
#   nfold check F --sizes 1..N --engine ic3 --json      (German: 1..12)
#   nfold check F --sizes 1..N --json                   (auto, the default)
# and prints the verdicts (how many sizes hold, and by which proof), the invariant's
# lemma count, and, with EXPLICIT=1, the largest size n <= N the explicit engine proves
# alone within EXPLICIT_LIMIT seconds (default 60) with its time.
#
# Usage: benches/proof_families.sh [N]        (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-10}
LIMIT=${EXPLICIT_LIMIT:-60}
[ -x /usr/bin/time ] || { echo "proof_families: /usr/bin/time is missing (Debian: time)" >&2; exit 2; }
cargo build --release --quiet
NFOLD=target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu CMD...: run, leave its stdout in $tmp/out, print user+system seconds.
cpu() {
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null || true
    tail -1 "$tmp/time" | awk '{ printf "%.2f", $1 + $2 }'
}

# summary: "k/m holds (how); L lemmas" from the JSON in $tmp/out.
summary() {
    python3 - "$tmp/out" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("no answer"); sys.exit()
rs = d["results"]
sizes = sorted({r["size"] for r in rs})
held = [s for s in sizes if all(r["verdict"] == "holds" for r in rs if r["size"] == s)]
hows = sorted({(r.get("proof") or {}).get("how", "search") for r in rs if r["verdict"] == "holds"})
lemmas = max([r.get("lemmas") or 0 for r in rs] or [0])
print(f"{len(held)}/{len(sizes)} hold ({', '.join(hows) or '-'}); {lemmas} lemmas")
EOF
}

printf '%-12s %-6s %8s  %-52s %8s  %s\n' family sizes "ic3 s" "ic3 answer" "auto s" "explicit"
for f in mutex token_mutex mesi grant_mutex german peterson ticket_lock token_ring oddeven_sort; do
    n=$N
    [ "$f" = german ] && n=$(( N > 12 ? N : 12 ))
    t_ic3=$(cpu timeout 600 "$NFOLD" check "families/$f.cub" --sizes "1..$n" --engine ic3 --json)
    a_ic3=$(summary)
    t_auto=$(cpu timeout 600 "$NFOLD" check "families/$f.cub" --sizes "1..$n" --json)
    ex=-
    if [ "${EXPLICIT:-0}" = 1 ]; then
        for k in $(seq 1 "$n"); do
            t=$(cpu timeout "$LIMIT" "$NFOLD" check "families/$f.cub" --size "$k" --engine explicit --json)
            grep -q '"verdict": *"holds"' "$tmp/out" || break
            ex="n=$k ${t}s"
        done
    fi
    printf '%-12s %-6s %8s  %-52s %8s  %s\n' "$f" "1..$n" "$t_ic3" "$a_ic3" "$t_auto" "$ex"
done
