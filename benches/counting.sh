#!/usr/bin/env bash
# Proofs that count (issue 26): IC3 with the counter view against a baseline build.
#
# Part 1, the counting targets: `nfold check MODEL --sizes R --engine ic3 --certificate C`
# then `nfold certify MODEL C`, with the verdicts, the note saying whether the counter view
# answered, and wall-clock seconds.
# Part 2, no regression: every shipped family at sizes 1..10 (German 1..12) with
# `--engine ic3`, this build against BASE (default: /work/main/target/release/nfold, a build
# of main), CPU seconds (user + system) side by side with their ratio.
#
# Usage: benches/counting.sh [BASE]        (BASE= to skip part 2)
# The machine may be shared: run it more than once before trusting a ratio.
set -uo pipefail
cd "$(dirname "$0")/.."
BASE=${1-/work/main/target/release/nfold}
LIMIT=${LIMIT:-120}
cargo build --release --quiet
NFOLD=target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

wall() { # wall seconds of CMD..., its stdout in $tmp/out
    /usr/bin/time -f '%e %U %S' -o "$tmp/time" timeout "$LIMIT" "$@" >"$tmp/out" 2>/dev/null
    tail -1 "$tmp/time"
}

printf '%-22s %-7s %-9s %-12s %-10s %s\n' model sizes "check s" certify "view" verdicts
for row in "families/ticket_lock.cub 1..10" "benches/models/ticket_user.cub 1..10" \
           "benches/models/rw_counter.cub 1..10" "benches/models/rw_counter.cub 1..20" \
           "benches/models/semaphore_k2.cub 1..10" "benches/models/semaphore_k3.cub 1..10" \
           "benches/models/barrier.cub 1..16" "benches/models/barrier_bug.cub 1..16" \
           "families/readers_writers.cub 1..10"; do
    set -- $row
    t=$(wall $NFOLD check "$1" --sizes "$2" --engine ic3 --certificate "$tmp/cert")
    verdict=$(grep -E '^(holds|violations|unknown|no answer)' "$tmp/out" | sed 's/;.*//' | head -1)
    view=$(grep -q "counter view" "$tmp/out" && echo counter || echo per-process)
    [ -s "$tmp/out" ] || verdict="no answer in ${LIMIT}s"
    cert=$( [ -f "$tmp/cert" ] && $NFOLD certify "$1" "$tmp/cert" >/dev/null 2>&1 && echo accepted || echo "-")
    printf '%-22s %-7s %-9s %-12s %-10s %s\n' "$(basename "$1" .cub)" "$2" "${t%% *}" "$cert" "$view" "$verdict"
    rm -f "$tmp/cert"
done

[ -n "$BASE" ] || exit 0
echo
printf '%-16s %-7s %9s %9s %7s\n' family sizes "base cpu" "new cpu" ratio
for f in mutex token_mutex mesi grant_mutex german peterson token_ring oddeven_sort readers_writers handoff_lock mcs_lock; do
    n=1..10; [ "$f" = german ] && n=1..12
    a=$(wall "$BASE" check "families/$f.cub" --sizes $n --engine ic3 | awk '{printf "%.2f", $2 + $3}')
    b=$(wall $NFOLD check "families/$f.cub" --sizes $n --engine ic3 | awk '{printf "%.2f", $2 + $3}')
    printf '%-16s %-7s %9s %9s %7s\n' "$f" "$n" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')"
done
