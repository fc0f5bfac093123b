#!/usr/bin/env bash
# The parallel fair-cycle search (`nfold live --threads 2`: the quotient product stored
# by a parallel breadth-first search, then decomposed into components, src/explicit/
# ndfs/par.rs) side by side with the sequential search (`--threads 1`: the fair SCC
# search under --fair, the nested DFS without), in one run. Per instance and thread
# count: the verdict, product states stored, wall seconds, CPU seconds (user + system,
# from /usr/bin/time), peak memory and bytes per stored product state (peak RSS minus
# the RSS of a trivial run, over the states); then the ratios 1 thread / 2 threads.
# A violated instance is not comparable in speed: the sequential search stops at its
# first lasso, the parallel one stores the whole product first (the parallel figure
# then measures the whole product). Different verdicts are flagged.
# Instances (issue 28 item 2): Peterson's filter lock under weak fairness at the largest
# size the sequential search answers in about 10 to 30 s, the ticket lock under
# fairness, the mutex family (fair: violated; unfair: violated) — set CASES_FILE to a
# file of `family.cub args` lines to run others.
# Usage: benches/live_parallel_compare.sh   (needs 2 idle cores for the ratios to
# mean anything; say in a report when the machine was shared)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
NF=./target/release/nfold

if [ -n "${CASES_FILE:-}" ]; then
  mapfile -t CASES < "$CASES_FILE"
else
  CASES=("peterson.cub --size 7 --fair" "ticket_lock.cub --size 8 --fair"
    "mutex.cub --size 9 --fair" "mutex.cub --size 9")
fi

# prints "verdict states wall cpu peak_bytes search"
run() {
  local tmp
  tmp=$(mktemp)
  /usr/bin/time -f "%e %U %S %M" -o "$tmp.time" "$NF" live "$@" --engine explicit --json --quiet \
    > "$tmp" || true
  python3 - "$tmp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
wall, user, sys_, _ = open(sys.argv[1] + ".time").read().split()[-4:]
print(r["verdict"], r["states"], wall, float(user) + float(sys_), d["peak_memory_bytes"], r["search"])
PY
  rm -f "$tmp" "$tmp.time"
}

read -r _ _ _ _ FIXED _ < <(run families/mutex.cub --size 1 --threads 1)
echo "fixed RSS of a trivial run: $((FIXED / 1024)) KiB (subtracted for bytes/state)"
echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-34s %2s %-9s %10s %8s %8s %8s %8s  %s\n" instance T verdict states wall cpu MiB B/state search
for c in "${CASES[@]}"; do
  # shellcheck disable=SC2086
  read -r v1 s1 w1 c1 m1 a1 < <(run families/$c --threads 1)
  # shellcheck disable=SC2086
  read -r v2 s2 w2 c2 m2 a2 < <(run families/$c --threads 2)
  python3 - "$c" "$FIXED" "$v1" "$s1" "$w1" "$c1" "$m1" "$a1" "$v2" "$s2" "$w2" "$c2" "$m2" "$a2" <<'PY'
import sys
c, fixed = sys.argv[1], int(sys.argv[2])
rows = [("1", *sys.argv[3:9]), ("2", *sys.argv[9:15])]
figs = []
for t, v, s, w, cpu, m, a in rows:
    s, w, cpu, m = int(s), float(w), float(cpu), int(m)
    bps = (m - fixed) / max(s, 1)
    figs.append((v, s, w, cpu, bps))
    print(f"{c:<34} {t:>2} {v:<9} {s:>10} {w:>8.2f} {cpu:>8.2f} {m / 2**20:>8.1f} {bps:>8.1f}  {a}")
(v1, s1, w1, c1, b1), (v2, s2, w2, c2, b2) = figs
flag = "" if v1 == v2 else "  (verdicts differ!)"
print(f"{'':<34}    1 thread / 2 threads: wall {w1 / max(w2, 1e-3):.2f}x, "
      f"cpu {c1 / max(c2, 1e-3):.2f}x; bytes/state 2 threads / 1: {b2 / max(b1, 1e-9):.2f}x{flag}")
PY
done
