#!/usr/bin/env bash
# Partial symmetry (`--partial-symmetry`, explicit::partial: adaptive symmetry
# reduction) against the unreduced explicit search on the families that compare
# process ids by order: Cubicle's bakery, Burns and Szymanski files (from
# ../shared/corpus, unpacked into a temporary directory) and the project's own Burns
# and Szymanski. For each file, sizes 2, 3, ... while the unreduced search finishes
# within LIMIT seconds (default 60); per size the states and seconds of both and
# their ratios (states unreduced / reduced, seconds unreduced / reduced). The last
# row of each file is the largest size the unreduced search finishes.
# MINN, MAXN: the sizes tried (default 2..16). Both runs on one thread (`--threads 1`: the partial search is sequential).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
NFOLD=$PWD/target/release/nfold
LIMIT=${LIMIT:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CORPUS=${CORPUS:-../shared/corpus/cubicle-3f76135.tar.gz}
[ -f "$CORPUS" ] || CORPUS=/work/shared/corpus/cubicle-3f76135.tar.gz
tar xzf "$CORPUS" -C "$tmp"
EX=$tmp/cubicle/examples
# FILES: paths, or corpus:NAME for Cubicle's examples/NAME.
FILES=${FILES:-"corpus:bakery.cub corpus:burns.cub corpus:szymanski_at.cub corpus:szymanski_na.cub families/burns.cub benches/models/burns.cub benches/models/szymanski.cub"}
# states seconds verdict of one run, or "- - timeout"
one() {
  local f=$1 n=$2; shift 2
  if timeout $((LIMIT + 5)) "$NFOLD" check "$f" --engine explicit --sizes "$n" --threads 1 \
       --timeout "$LIMIT" --json "$@" > "$tmp/out.json" 2>/dev/null || [ -s "$tmp/out.json" ]; then
    python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
r=d["results"]
if d.get("limit") or not r or not all(x.get("complete") for x in r):
    print("- - timeout")
else:
    print(r[0]["states"], "%.2f" % d["seconds"], ",".join(sorted({x["verdict"] for x in r})))' "$tmp/out.json"
  else
    echo "- - timeout"
  fi
}
printf "%-22s %3s %-9s | %10s %8s | %10s %8s | %8s %7s\n" file n verdict "plain st" "plain s" "partial st" "part s" "st ratio" "s ratio"
for f in $FILES; do
  case $f in corpus:*) f=$EX/${f#corpus:} ;; esac
  name=$(basename "$(dirname "$f")")/$(basename "$f")
  for n in $(seq ${MINN:-2} ${MAXN:-16}); do
    read -r ps pt pv < <(one "$f" "$n")
    [ "$pv" = timeout ] && break
    read -r qs qt qv < <(one "$f" "$n" --partial-symmetry)
    if [ "$qv" = timeout ]; then
      printf "%-22s %3s %-9s | %10s %8s | %10s %8s | %8s %7s\n" "$name" "$n" "$pv" "$ps" "$pt" "-" ">$LIMIT" "-" "-"
      continue
    fi
    [ "$pv" = "$qv" ] || echo "VERDICTS DIFFER: $pv vs $qv"
    read -r sr tr < <(python3 -c "print('%.2f' % ($ps / $qs), '%.2f' % ($pt / max($qt, 0.005)))")
    printf "%-22s %3s %-9s | %10s %8s | %10s %8s | %8s %7s\n" "$name" "$n" "$pv" "$ps" "$pt" "$qs" "$qt" "$sr" "$tr"
  done
done
echo "(st ratio: states unreduced / states with partial symmetry; s ratio: seconds unreduced / seconds with partial symmetry; one thread each)"
