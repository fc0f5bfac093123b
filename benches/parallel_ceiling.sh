#!/usr/bin/env bash
# What two cores of this machine can give at all, beside what the parallel search gets
# from them (issue 28: "where the limit is"). For each instance, in one run:
#   t1    one search on 1 thread, alone;
#   pair  two copies of that search at once, each on 1 thread (independent processes,
#         no shared data): the machine's own ceiling for two cores on this workload is
#         2 * t1 / pair (2.0 on two fully independent cores; less when the cores share
#         caches, memory bandwidth or a physical core, as vCPUs may);
#   t2    one search on 2 threads (`--threads 2`): its speed-up t1 / t2, and that
#         speed-up as a share of the ceiling.
# Instances as benches/parallel_compare.sh; NFOLD_CASES=quick runs smaller ones.
# Usage: benches/parallel_ceiling.sh   (on an otherwise idle machine; say so when not)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
NF=./target/release/nfold

if [ "${NFOLD_CASES:-}" = quick ]; then
  CASES=("peterson.cub --size 5 --no-symmetry" "german.cub --size 5" "ticket_lock.cub --size 7 --no-dead-cells")
else
  CASES=("peterson.cub --size 6 --no-symmetry" "german.cub --size 7" "ticket_lock.cub --size 9 --no-dead-cells")
fi

now() { python3 -c 'import time; print(time.monotonic())'; }
# wall seconds of the command
wall() {
  local a b
  a=$(now)
  "$@" > /dev/null
  b=$(now)
  python3 -c "print(f'{$b - $a:.3f}')"
}

echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-42s %8s %8s %8s %9s %9s %9s\n" instance t1 pair t2 ceiling speedup share
for c in "${CASES[@]}"; do
  # shellcheck disable=SC2086
  set -- check families/$c --engine explicit --quiet
  t1=$(wall "$NF" "$@" --threads 1)
  a=$(now)
  "$NF" "$@" --threads 1 > /dev/null &
  p1=$!
  "$NF" "$@" --threads 1 > /dev/null &
  p2=$!
  wait $p1 $p2
  b=$(now)
  pair=$(python3 -c "print(f'{$b - $a:.3f}')")
  t2=$(wall "$NF" "$@" --threads 2)
  python3 - "$c" "$t1" "$pair" "$t2" <<'PY'
import sys
c, t1, pair, t2 = sys.argv[1], *map(float, sys.argv[2:])
ceiling = 2 * t1 / pair
speedup = t1 / t2
print(f"{c:<42} {t1:>8.2f} {pair:>8.2f} {t2:>8.2f} {ceiling:>8.2f}x {speedup:>8.2f}x {speedup / ceiling:>8.0%}")
PY
done
