#!/usr/bin/env bash
# Side-by-side speed and memory of nfold's explicit engine, measured in one run:
#   1. per core: nfold on 1 thread vs SPIN 6.5.2 (Debian package `spin`, pan -O2, one
#      core) on the same transition system: Peterson's filter lock (families/peterson.cub,
#      translated to Promela by benches/peterson_pml.py), exhaustive search without
#      symmetry; SPIN's state count must be nfold's plus one (the state of `init` before
#      it starts the system). Beside it nfold on 2 threads, the machine's ceiling (two
#      1-thread copies at once) and bytes per state; medians of RUNS (default 3) runs.
#   1b. at the largest n, SPIN's multi-core search (-DNCORE=2, the same -DMEMLIM)
#      beside nfold on 1 and 2 threads (SPIN's seconds: its slowest core's elapsed time).
#   2. Peterson with symmetry reduction for growing n, and the reduction factor.
#   3. German's protocol with and without symmetry.
# Prints states, states/s, peak memory (max RSS) and the ratios. Needs spin and gcc.
# Usage: benches/compare.sh [max n for SPIN, default 6]
set -euo pipefail
cd "$(dirname "$0")/.."
MAXN=${1:-6}
RUNS=${RUNS:-3}
cargo build --release -q
NF=./target/release/nfold
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

now() { python3 -c 'import time; print(time.monotonic())'; }

# nfold: prints "states seconds maxrss_kb"
nfold_run() {
  /usr/bin/time -f "%M" -o "$WORK/rss" "$NF" check "$@" --engine explicit --json > "$WORK/out.json" 2> /dev/null || true
  python3 - "$WORK/out.json" "$WORK/rss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
print(r["states"], r["seconds"], open(sys.argv[2]).read().split()[-1])
PY
}

echo "== 1. Per core: nfold on 1 thread vs SPIN (pan -O2, one core), Peterson filter lock, no symmetry"
echo "   (same transition system; median of $RUNS runs each; then nfold on 2 threads against 1,"
echo "   beside the machine's ceiling: two 1-thread copies at once, 2 * t1 / pair)"
printf "%3s %11s %8s %8s %8s %8s %8s %8s %8s %7s %7s %7s\n" n states nfold-1t spin per-core nfold-2t 2t/1t ceiling share B/state spin-B mem
# From n = 5: smaller instances take milliseconds.
for n in $(seq 5 "$MAXN"); do
  python3 benches/peterson_pml.py "$n" > "$WORK/p.pml"
  (cd "$WORK" && spin -a p.pml > /dev/null && gcc -O2 -DSAFETY -DNOCLAIM -DMEMLIM=20000 -o pan pan.c 2> /dev/null)
  t1s=(); t2s=(); sts=(); pairs=(); walls=()
  for _ in $(seq "$RUNS"); do
    read -r ns nt nrss < <(nfold_run families/peterson.cub --size "$n" --no-symmetry --threads 1)
    t1s+=("$nt")
    read -r _ nt2 _ < <(nfold_run families/peterson.cub --size "$n" --no-symmetry --threads 2)
    t2s+=("$nt2")
    # SPIN sized as a user would: hash table 2^w slots (w >= 18) and search depth bound
    # -m by the state count (the depth cannot exceed it).
    w=$(python3 -c "print(max(18, int($ns).bit_length() + 1))")
    /usr/bin/time -f "%M" -o "$WORK/srss" "$WORK/pan" -m$((ns + 1000)) -w"$w" > "$WORK/spin.txt" 2>&1 || true
    sts+=("$(grep -oE "elapsed time [0-9.e+-]+" "$WORK/spin.txt" | grep -oE "[0-9.e+-]+$")")
    # The ceiling compares whole processes: one alone, then two at once.
    a=$(now)
    "$NF" check families/peterson.cub --size "$n" --no-symmetry --engine explicit --threads 1 --quiet > /dev/null || true
    b=$(now)
    walls+=("$(python3 -c "print($b - $a)")")
    a=$(now)
    "$NF" check families/peterson.cub --size "$n" --no-symmetry --engine explicit --threads 1 --quiet > /dev/null &
    q1=$!
    "$NF" check families/peterson.cub --size "$n" --no-symmetry --engine explicit --threads 1 --quiet > /dev/null &
    q2=$!
    wait $q1 $q2 || true
    b=$(now)
    pairs+=("$(python3 -c "print($b - $a)")")
  done
  ss=$(grep -oE "^ *[0-9]+ states, stored" "$WORK/spin.txt" | grep -oE "[0-9]+" | head -1)
  srss=$(tail -1 "$WORK/srss")
  python3 - "$n" "$ns" "$ss" "$nrss" "$srss" "${t1s[*]}" "${t2s[*]}" "${sts[*]}" "${pairs[*]}" "${walls[*]}" <<'PY'
import sys, statistics as st
n, ns, ss, nrss, srss = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
med = lambda x: max(st.median(float(v) for v in x.split()), 1e-3)
t1, t2, ts, pair, wall = (med(a) for a in sys.argv[6:11])
ceiling = 2 * wall / pair
flag = "" if ss == ns + 1 else "  (state counts differ!)"
print(f"{n:>3} {ns:>11} {ns/t1/1e6:>7.2f}M {ss/ts/1e6:>7.2f}M {(ns/t1)/(ss/ts):>7.2f}x {ns/t2/1e6:>7.2f}M "
      f"{t1/t2:>7.2f}x {ceiling:>7.2f}x {(t1/t2)/ceiling:>7.0%} {nrss*1024/ns:>7.1f} {srss*1024/ss:>7.1f} {srss/nrss:>6.2f}x{flag}")
PY
done
echo "(states/s in millions; per-core = nfold 1 thread over SPIN; share = (2t/1t) / ceiling;"
echo " B/state = peak RSS over states; mem = SPIN's peak RSS over nfold's)"

echo
echo "== 1b. Two cores: SPIN -DNCORE=2 (same -DMEMLIM) against nfold on 1 and 2 threads, n = $MAXN"
printf "%-22s %11s %9s %12s %9s\n" run states seconds states/s MB
n=$MAXN
python3 benches/peterson_pml.py "$n" > "$WORK/p.pml"
(cd "$WORK" && spin -a p.pml > /dev/null && gcc -O2 -DSAFETY -DNOCLAIM -DNCORE=2 -DMEMLIM=20000 -o pan2 pan.c 2> /dev/null)
for t in 1 2; do
  read -r ns nt nrss < <(nfold_run families/peterson.cub --size "$n" --no-symmetry --threads "$t")
  python3 -c "s,t,r=int('$ns'),float('$nt'),int('$nrss'); print(f'{\"nfold --threads $t\":<22} {s:>11} {t:>9.2f} {s/max(t,1e-3):>12.0f} {r/1024:>9.1f}')"
done
w=$(python3 -c "print(max(18, int($ns).bit_length() + 1))")
(cd "$WORK" && /usr/bin/time -f "%M" -o "$WORK/srss" ./pan2 -m$((ns + 1000)) -w"$w" > "$WORK/spin2.txt" 2>&1) || true
ss=$(grep -oE "^ *[0-9]+ states, stored" "$WORK/spin2.txt" | grep -oE "[0-9]+" | head -1)
st=$(grep -oE "elapsed time [0-9.e+-]+" "$WORK/spin2.txt" | grep -oE "[0-9.e+-]+$" | sort -g | tail -1)
srss=$(tail -1 "$WORK/srss")
python3 -c "s,t,r=int('${ss:-0}'),float('${st:-0}'),int('$srss'); print(f'{\"SPIN -DNCORE=2\":<22} {s:>11} {t:>9.2f} {s/max(t,1e-3):>12.0f} {r/1024:>9.1f}')"

echo
echo "== 2. Peterson filter lock with symmetry reduction"
printf "%3s %11s %9s %12s %9s %11s\n" n states seconds states/s MB reduction
for n in 2 3 4 5 6 7; do
  read -r ss st srss < <(nfold_run families/peterson.cub --size "$n")
  if [ "$n" -le 6 ]; then read -r ps _ _ < <(nfold_run families/peterson.cub --size "$n" --no-symmetry); else ps=""; fi
  python3 - "$n" "$ss" "$st" "$srss" "$ps" <<'PY'
import sys, math
n, ss, st, rss, ps = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
red = f"{int(ps)/ss:.1f} (n!={math.factorial(int(n))})" if ps else "-"
print(f"{n:>3} {ss:>11} {st:>9.2f} {ss/max(st,1e-3):>12.0f} {rss/1024:>9.1f} {red:>11}")
PY
done

echo
echo "== 3. German's protocol"
printf "%3s %-8s %11s %9s %12s %9s\n" n mode states seconds states/s MB
for n in 3 4 5; do
  for mode in sym plain; do
    flag=""; [ "$mode" = plain ] && flag="--no-symmetry"
    read -r s t r < <(nfold_run families/german.cub --size "$n" $flag)
    python3 -c "import sys; s,t,r=int('$s'),float('$t'),int('$r'); print(f'{$n:>3} {\"$mode\":<8} {s:>11} {t:>9.2f} {s/max(t,1e-3):>12.0f} {r/1024:>9.1f}')"
  done
done
