#!/usr/bin/env bash
# Liveness: nfold's `live` engine (nested DFS; under weak fairness per process the
# fair SCC search, on the annotated quotient with symmetry) side by side with SPIN 6.5.2 (Debian package `spin`, `pan -a [-f]`) on the same
# transition system, translated by benches/live_pml.py (one Promela process per nfold
# process, so `pan -f` is nfold's `--fair`). Needs spin and gcc.
#   1. Peterson's filter lock, `starvation_free` under weak fairness (holds), no
#      symmetry, n = 2..maxN: states, transitions, seconds, states/s, max RSS, ratios.
#   2. nfold on the same with symmetry reduction (exact), n = 2..6 (7 with SYM7=1), and the
#      reduction factor (states without / with symmetry where both ran) beside (n-1)!
#      (the property names process 1, so only permutations of the others apply).
#   3. Without fairness, mutex and Peterson (violated, except Peterson at n = 2, where
#      the only other process blocks and process 1 must move): time to the violation.
#
# SPIN is built with -DNOREDUCE (no partial-order reduction: every interleaving, as
# nfold; POR happens not to change these counts anyway) and -DNFAIR large enough for
# N processes + init + claim. It is sized as a user would: the search starts with
# -m10000 -w18 and is rerun with 8x the depth bound while pan says "max search depth
# too small", and once with a hash table of 2^(bits(stored)+1) slots if the states
# outnumber the slots; the table shows the last run. Seconds are pan's own elapsed time
# (3 significant digits) and nfold's JSON `seconds`; MB is max RSS (/usr/bin/time %M).
#
# State counts are not expected to be equal: SPIN's "stored" counts states of the
# product with its never claim, in which its weak-fairness construction adds copies,
# and its vector holds the finished `init` (pid 0) too; nfold counts its own product.
# (For reachability alone the translation gives exactly nfold's count + 1, the state
# of `init` before it starts the processes.) "visited" (SPIN) also counts the second,
# nested search's visits. Neither family has a reachable deadlock, so the two tools'
# handling of deadlocks (both repeat the state forever) does not come into play.
#
# Usage: benches/live_compare.sh [max n for table 1 and 3, default 5]
# Environment:
#   NFOLD_SKIP=1     skip the nfold build and runs (prints "-" in their place): tests
#                    the SPIN side alone
#   SYM7=1           also run n = 7 in table 2
#   SPIN_TIMEOUT=s   limit for each pan run (default 600), NFOLD_TIMEOUT=s likewise
#   NFOLD_THREADS=T  run nfold with --threads T (T >= 2: the parallel SCC search)
set -euo pipefail
cd "$(dirname "$0")/.."
MAXN=${1:-5}
SKIP=${NFOLD_SKIP:-0}
ST=${SPIN_TIMEOUT:-600}
NT=${NFOLD_TIMEOUT:-600}
[ "$SKIP" = 1 ] || cargo build --release -q
NF=./target/release/nfold
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# spin_run FAMILY N fair|unfair -> "verdict stored visited transitions seconds rss_kb opts"
spin_run() {
  local fam=$1 n=$2 mode=$3 d="$WORK/$1-$2"
  if [ ! -x "$d/pan" ]; then
    mkdir -p "$d"
    python3 benches/live_pml.py "$fam" "$n" > "$d/x.pml"
    local nfair=$(( (n + 7) / 4 ))
    [ "$nfair" -ge 2 ] || nfair=2
    (cd "$d" && spin -a x.pml > /dev/null && gcc -O2 -DMEMLIM=20000 -DNOREDUCE -DNFAIR="$nfair" -o pan pan.c 2> /dev/null)
  fi
  local f="" m=10000 w=18 resized=0 rc
  [ "$mode" = fair ] && f=-f
  while :; do
    rc=0
    # (in $d: pan writes its trail x.pml.trail to the current directory)
    (cd "$d" && /usr/bin/time -f "%M" -o rss timeout "$ST" ./pan -a $f -m$m -w$w > out.txt 2>&1) || rc=$?
    if [ "$rc" = 124 ]; then echo "timeout - - - >$ST - -m$m/-w$w"; return; fi
    local errs stored
    errs=$(grep -oE "errors: [0-9]+" "$d/out.txt" | grep -oE "[0-9]+" || echo 0)
    if [ "$errs" = 0 ] && grep -q "max search depth too small" "$d/out.txt" && [ "$m" -lt 1000000000 ]; then
      m=$((m * 8)); continue
    fi
    stored=$(grep -oE "^ *[0-9.e+]+ states, stored" "$d/out.txt" | grep -oE "^ *[0-9.e+]+" | head -1)
    local bits
    bits=$(python3 -c "print(int(float('$stored')).bit_length() + 1)" 2> /dev/null) || bits=0
    if [ "$resized" = 0 ] && [ "$bits" -gt $((w + 1)) ]; then
      w=$bits; resized=1; continue
    fi
    break
  done
  python3 - "$d/out.txt" "$d/rss" "$rc" "-m$m/-w$w" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def num(pat):
    m = re.search(pat, t, re.M)
    return m.group(1) if m else "-"
errs = int(num(r"errors: (\d+)") if num(r"errors: (\d+)") != "-" else -1)
if "acceptance cycle" in t or errs > 0:
    verdict = "violated"
elif errs == 0 and "max search depth too small" not in t and sys.argv[3] == "0":
    verdict = "holds"
else:
    verdict = "unknown"
stored = num(r"^\s*([\d.e+]+) states, stored")
visited = num(r"states, stored \(([\d.e+]+) visited\)")
if visited == "-":
    visited = stored
trans = num(r"^\s*([\d.e+]+) transitions")
secs = num(r"elapsed time ([\d.e+-]+)")
i = lambda s: str(int(float(s))) if s != "-" else "-"
print(verdict, i(stored), i(visited), i(trans), secs, open(sys.argv[2]).read().split()[-1], sys.argv[4])
PY
}

# nfold_run FILE N [flags] -> "verdict states transitions seconds rss_kb" ("-" if skipped)
nfold_run() {
  if [ "$SKIP" = 1 ]; then echo "- - - - -"; return; fi
  local file=$1 n=$2; shift 2
  local rc=0
  /usr/bin/time -f "%M" -o "$WORK/nrss" timeout "$NT" "$NF" live "$file" --size "$n" "$@" ${NFOLD_THREADS:+--threads "$NFOLD_THREADS"} --json --quiet > "$WORK/out.json" 2> "$WORK/err.txt" || rc=$?
  python3 - "$WORK/out.json" "$WORK/nrss" "$rc" "$NT" <<'PY'
import json, sys
rc = int(sys.argv[3])
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    rss = open(sys.argv[2]).read().split()[-1]
    verdict = r.get("verdict", "-")
    print(verdict, r.get("states", "-"), r.get("transitions", "-"),
          r.get("seconds", "-"), rss)
except Exception:
    print("timeout" if rc == 124 else f"error(rc={rc})", "-", "-", f">{sys.argv[4]}" if rc == 124 else "-", "-")
PY
}

declare -A NOSYM
OPTS=""

echo "== 1. Peterson filter lock, starvation_free under weak fairness, no symmetry: nfold live --fair vs SPIN pan -a -f"
printf "%3s %-17s %11s %11s %11s %11s %11s %8s %8s %11s %11s %8s %8s %7s %7s %7s\n" \
  n "verdict nf/spin" nf-states spin-stored spin-visit nf-trans spin-trans nf-s spin-s nf-st/s spin-st/s nf-MB spin-MB speed time mem
for n in $(seq 2 "$MAXN"); do
  read -r nv ns ntr nt nrss < <(nfold_run families/peterson.cub "$n" --fair --no-symmetry)
  read -r sv ss svis str st srss sopt < <(spin_run peterson "$n" fair)
  NOSYM[$n]=$ns
  OPTS="$OPTS n=$n: $sopt;"
  python3 - "$n" "$nv" "$ns" "$ntr" "$nt" "$nrss" "$sv" "$ss" "$svis" "$str" "$st" "$srss" <<'PY'
import sys
n, nv, ns, ntr, nt, nrss, sv, ss, svis, st_, st, srss = sys.argv[1:]
def f(x):
    try: return float(x)
    except ValueError: return None
def rate(s, t):
    s, t = f(s), f(t)
    return None if s is None or t is None else s / max(t, 1e-3)
def mb(k):
    return f"{f(k)/1024:.1f}" if f(k) is not None else "-"
nr, sr = rate(ns, nt), rate(ss, st)
speed = f"{nr/sr:.2f}x" if nr and sr else "-"
tr = f"{max(f(st),1e-3)/max(f(nt),1e-3):.2f}x" if f(st) is not None and f(nt) is not None else "-"
mr = f"{f(srss)/f(nrss):.2f}x" if f(srss) and f(nrss) else "-"
known = ("holds", "violated")
flag = "  VERDICTS DIFFER!" if nv in known and sv in known and nv != sv else ""
show = lambda r: f"{r:.0f}" if r is not None else "-"
print(f"{n:>3} {nv + '/' + sv:<17} {ns:>11} {ss:>11} {svis:>11} {ntr:>11} {st_:>11} {nt[:8]:>8} {st[:8]:>8} "
      f"{show(nr):>11} {show(sr):>11} {mb(nrss):>8} {mb(srss):>8} {speed:>7} {tr:>7} {mr:>7}{flag}")
PY
done
echo "(speed = nfold states/s over SPIN stored states/s; time = SPIN seconds over nfold seconds;"
echo " mem = SPIN max RSS over nfold max RSS; state counts are of different products, see the header)"
echo "(pan -a -f sized as:$OPTS)"

echo
echo "== 2. nfold live --fair with symmetry reduction (the SCC search on the annotated quotient), Peterson starvation_free"
printf "%3s %-9s %11s %11s %9s %12s %9s %11s %9s\n" n verdict states transitions seconds states/s MB reduction "(n-1)!"
SYMN="2 3 4 5 6"
[ "${SYM7:-0}" = 1 ] && SYMN="$SYMN 7"
for n in $SYMN; do
  read -r v s tr t rss < <(nfold_run families/peterson.cub "$n" --fair)
  python3 - "$n" "$v" "$s" "$tr" "$t" "$rss" "${NOSYM[$n]:--}" <<'PY'
import sys, math
n, v, s, tr, t, rss, ps = sys.argv[1:]
def f(x):
    try: return float(x)
    except ValueError: return None
rate = f"{f(s)/max(f(t),1e-3):.0f}" if f(s) is not None and f(t) is not None else "-"
mb = f"{f(rss)/1024:.1f}" if f(rss) is not None else "-"
red = f"{f(ps)/f(s):.1f}" if f(ps) and f(s) else "-"
print(f"{n:>3} {v:<9} {s:>11} {tr:>11} {t[:9]:>9} {rate:>12} {mb:>9} {red:>11} {math.factorial(int(n) - 1):>9}")
PY
done

echo
echo "== 3. Without fairness: time to the violation of starvation_free (nfold live, no symmetry, vs SPIN pan -a)"
printf "%-9s %3s %-17s %11s %11s %9s %9s\n" family n "verdict nf/spin" nf-states spin-stored nf-s spin-s
for fam in mutex peterson; do
  for n in $(seq 2 "$MAXN"); do
    read -r nv ns _ nt _ < <(nfold_run "families/$fam.cub" "$n" --no-symmetry)
    read -r sv ss _ _ st _ < <(spin_run "$fam" "$n" unfair)
    flag=""
    case "$nv:$sv" in holds:violated|violated:holds) flag="  VERDICTS DIFFER!" ;; esac
    printf "%-9s %3s %-17s %11s %11s %9s %9s%s\n" "$fam" "$n" "$nv/$sv" "$ns" "$ss" "${nt:0:9}" "$st" "$flag"
  done
done

echo
echo "== 4. Symmetry reduction in the exact mode (no fairness): ticket lock starvation_free (holds)"
printf "%3s %-9s %11s %9s %11s %9s %11s %9s\n" n verdict no-sym s sym s reduction "(n-1)!"
for n in 2 3 4 5 6; do
  read -r v1 s1 _ t1 _ < <(nfold_run families/ticket_lock.cub "$n" --no-symmetry)
  read -r v2 s2 _ t2 _ < <(nfold_run families/ticket_lock.cub "$n")
  python3 - "$n" "$v1/$v2" "$s1" "$t1" "$s2" "$t2" <<'PY'
import sys, math
n, v, s1, t1, s2, t2 = sys.argv[1:]
def f(x):
    try: return float(x)
    except ValueError: return None
red = f"{f(s1)/f(s2):.1f}" if f(s1) and f(s2) else "-"
print(f"{n:>3} {v:<9} {s1:>11} {t1[:9]:>9} {s2:>11} {t2[:9]:>9} {red:>11} {math.factorial(int(n) - 1):>9}")
PY
done
