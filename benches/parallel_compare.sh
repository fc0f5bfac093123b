#!/usr/bin/env bash
# The parallel explicit safety search side by side, measured in one run: each instance
# on 1 thread and on 2 threads (`nfold check --threads T`), with states/s, peak memory,
# bytes per stored state, and the ratios 2 threads / 1 thread. The instances (issue 28):
#   Peterson's filter lock n = 6 without symmetry (the transition system SPIN checks in
#     benches/compare.sh), German's protocol n = 7 with symmetry, the ticket lock n = 9
#     without dead cells.
# Bytes per state: (peak RSS - the RSS of a trivial run) / states stored, so the fixed
# cost of the process is not charged to the states.
# The state counts at both thread counts must be equal (the search stores the same
# states at every count); a difference is flagged.
# Set BASE=/path/to/an/older/nfold to add its figures as a third column set (e.g. the
# sequential search before the parallel one); NFOLD_CASES=quick runs smaller instances.
# Usage: benches/parallel_compare.sh   (needs a machine with at least 2 idle cores for
# the ratios to mean anything; say in a report when it was shared)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
NF=./target/release/nfold
BASE=${BASE:-}

if [ "${NFOLD_CASES:-}" = quick ]; then
  CASES=("peterson.cub --size 5 --no-symmetry" "german.cub --size 5" "ticket_lock.cub --size 7 --no-dead-cells")
else
  CASES=("peterson.cub --size 6 --no-symmetry" "german.cub --size 7" "ticket_lock.cub --size 9 --no-dead-cells")
fi

# prints "states seconds peak_bytes"
run() {
  local bin=$1; shift
  "$bin" check "$@" --engine explicit --json --quiet | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["results"][0]
print(r["states"], r["seconds"], d["peak_memory_bytes"])'
}

read -r _ _ FIXED < <(run "$NF" families/mutex.cub --size 1 --threads 1)
echo "fixed RSS of a trivial run: $((FIXED / 1024)) KiB (subtracted for bytes/state)"
echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-42s %3s %11s %9s %12s %9s %9s\n" instance T states seconds states/s MiB B/state
for c in "${CASES[@]}"; do
  read -r s1 t1 m1 < <(run "$NF" families/$c --threads 1)
  read -r s2 t2 m2 < <(run "$NF" families/$c --threads 2)
  if [ -n "$BASE" ]; then read -r s0 t0 m0 < <(run "$BASE" families/$c); else s0=""; t0=""; m0=""; fi
  python3 - "$c" "$FIXED" "$s1" "$t1" "$m1" "$s2" "$t2" "$m2" "$s0" "$t0" "$m0" <<'PY'
import sys
c, fixed = sys.argv[1], int(sys.argv[2])
rows = [("1", *sys.argv[3:6]), ("2", *sys.argv[6:9])]
if sys.argv[9]:
    rows.append(("base", *sys.argv[9:12]))
def fig(s, t, m):
    s, t, m = int(s), max(float(t), 1e-3), int(m)
    return s, t, s / t, m / 2**20, (m - fixed) / s
for label, s, t, m in rows:
    s, t, r, mib, bps = fig(s, t, m)
    print(f"{c:<42} {label:>3} {s:>11} {t:>9.2f} {r:>12.0f} {mib:>9.1f} {bps:>9.1f}")
a, b = fig(*sys.argv[3:6]), fig(*sys.argv[6:9])
flag = "" if a[0] == b[0] else "  (state counts differ!)"
line = f"{'':<42} 2 threads / 1 thread: speed {b[2] / a[2]:.2f}x, bytes/state {b[4] / a[4]:.2f}x{flag}"
if sys.argv[9]:
    z = fig(*sys.argv[9:12])
    line += f"; 1 thread / base: speed {a[2] / z[2]:.2f}x, bytes/state {a[4] / z[4]:.2f}x"
print(line)
PY
done
