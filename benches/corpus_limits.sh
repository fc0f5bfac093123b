#!/usr/bin/env bash
# The default command on models nobody tuned for: every file of Cubicle's corpus that
# nfold loads, `nfold check FILE --sizes SIZES --timeout T --json` (and `nfold live`
# on the files with `ltl` properties), checked for what must hold on any input:
#   - no panic (exit 101) and no internal error;
#   - the run ends within T + SLACK seconds of wall time (the user's limit holds in
#     every phase);
#   - the JSON document parses, and has a row for every (property, size) asked;
#   - exit 0 only when every row holds (or is vacuous); never `holds` beside a row
#     that is violated or unanswered in the summary (checked on the JSON rows).
# Prints one line per file and the failures at the end; exit 1 when any.
#   bash benches/corpus_limits.sh ../shared/corpus/cubicle-3f76135.tar.gz
# SIZES (default 1..4), T (default 10), SLACK (default 3), FILTER=regex.
set -uo pipefail
corpus=$(realpath "${1:?usage: corpus_limits.sh CORPUS.tar.gz}")
sizes=${SIZES:-1..4}
t=${T:-10}
slack=${SLACK:-3}
cd "$(dirname "$0")/.."
# NFOLD=path: that binary; otherwise this tree's release build (benches/corpus_setup.sh).
source benches/corpus_setup.sh
judge=$tmp/judge.py
cat > "$judge" <<'PY'
import json, sys
out, err, rc, wall, limit, sizes = sys.argv[1:7]
rc, wall, limit = int(rc), float(wall), float(limit)
lo, hi = (int(x) for x in sizes.split(".."))
bad = []
text = open(err, errors="replace").read()
if rc == 101 or "panicked" in text:
    bad.append("panic")
if "internal error" in text:
    bad.append("internal error")
if wall > limit:
    bad.append("ran %.1fs past a %.0fs limit" % (wall, limit))
try:
    d = json.load(open(out))
except Exception:
    d = None
    if rc in (0, 1, 3, 4):
        bad.append("no JSON document (exit %d)" % rc)
if d is not None:
    rows = d.get("results", [])
    asked = {(r["property"], r["size"]) for r in rows if r["kind"] in ("unsafe", "invariant", "ltl")}
    names = {p for p, _ in asked}
    for p in names:
        missing = [n for n in range(lo, hi + 1) if (p, n) not in asked]
        if missing:
            bad.append("%s: no row at sizes %s" % (p, missing))
    verdicts = {r["verdict"] for r in rows if r["kind"] in ("unsafe", "invariant", "ltl")}
    if rc == 0 and not verdicts <= {"holds", "vacuous"}:
        bad.append("exit 0 with verdicts %s" % sorted(verdicts))
    if "violated" in verdicts and rc == 0:
        bad.append("exit 0 beside a violation")
print("; ".join(bad) if bad else "ok")
PY
printf "%-44s %-5s %5s %6s  %s\n" file mode exit wall result
fails=""
n=0
while IFS= read -r f; do
  rel=${f#$tmp/cubicle/examples/}
  if [ -n "${FILTER:-}" ] && ! [[ $rel =~ $FILTER ]]; then continue; fi
  timeout 10 "$NFOLD" info "$f" > /dev/null 2>&1 || continue
  modes=(check)
  grep -q "^ltl" "$f" && modes+=(live)
  for mode in "${modes[@]}"; do
    n=$((n + 1))
    /usr/bin/time -f "%e" -o "$tmp/time" timeout $((t * 6)) "$NFOLD" "$mode" "$f" \
      --sizes "$sizes" --timeout "$t" --json > "$tmp/out.json" 2> "$tmp/err.txt"
    rc=$?
    wall=$(tail -1 "$tmp/time")
    res=$(python3 "$judge" "$tmp/out.json" "$tmp/err.txt" "$rc" "$wall" $((t + slack)) "$sizes")
    printf "%-44s %-5s %5s %6s  %s\n" "$rel" "$mode" "$rc" "$wall" "$res"
    [ "$res" = ok ] || fails+="$rel ($mode): $res"$'\n'
  done
done < <(find "$tmp/cubicle/examples" -name '*.cub' | sort)
echo
echo "$n runs; failures:"
printf "%s" "${fails:-none}"
echo
[ -z "$fails" ]
