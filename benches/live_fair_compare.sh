#!/usr/bin/env bash
# Starvation freedom under weak fairness (`nfold live FILE --fair --size N`, default
# symmetry) on Peterson's filter lock and the ticket lock, one size at a time with a
# 60 s limit each (`LIMIT`), an older nfold binary and this one side by side: verdict,
# the search that answered, product states stored, seconds, peak memory (max RSS), and
# the largest n each answers exactly (`holds` or `violated`; not `none found*`, the
# older binary's incomplete answer, nor `unknown`). A family goes on to the next size
# until both binaries stop answering exactly.
#   BEFORE=path/to/old/nfold benches/live_fair_compare.sh [first n] [last n]
# Build the old binary from an older checkout (e.g. `git worktree add /tmp/old main &&
# cargo build --release` there). Without BEFORE only this build runs. Runs are one at a
# time; on a shared machine times vary.
set -euo pipefail
cd "$(dirname "$0")/.."
FIRST=${1:-4}
LAST=${2:-10}
LIMIT=${LIMIT:-60}
cargo build --release -q
NEW=./target/release/nfold
OLD=${BEFORE:-}

# run BIN FILE N -> "verdict search states seconds MB"
run() {
  local bin=$1 file=$2 n=$3 out rss
  out=$(mktemp)
  rss=$(mktemp)
  /usr/bin/time -f "%M" -o "$rss" "$bin" live "$file" --fair --size "$n" --timeout "$LIMIT" \
    --json --quiet > "$out" 2> /dev/null || true
  python3 - "$out" "$rss" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))["results"][0]
    mb = int(open(sys.argv[2]).read().split()[-1]) / 1024
    v = "none*" if r.get("incomplete") else r["verdict"]
    if r.get("limit"):
        v = "unknown"
    print(v, r["algorithm"], r["states"], f'{r["seconds"]:.2f}', f"{mb:.0f}")
except Exception:
    print("error - - - -")
PY
  rm -f "$out" "$rss"
}

exact() { case "$1" in holds|violated) return 0 ;; *) return 1 ;; esac; }

for fam in peterson ticket_lock; do
  echo "== $fam: starvation_free --fair, limit ${LIMIT}s per size"
  printf "%3s | %-9s %-14s %11s %8s %7s | %-9s %-14s %11s %8s %7s\n" \
    n before search states s MB after search states s MB
  max_old=-; max_new=-; old_on=0; new_on=1
  [ -n "$OLD" ] && old_on=1
  for n in $(seq "$FIRST" "$LAST"); do
    o="- - - - -"; a="- - - - -"
    [ "$old_on" = 1 ] && o=$(run "$OLD" "families/$fam.cub" "$n")
    [ "$new_on" = 1 ] && a=$(run "$NEW" "families/$fam.cub" "$n")
    read -r ov os ost ot om <<< "$o"
    read -r av as ast at am <<< "$a"
    printf "%3s | %-9s %-14s %11s %8s %7s | %-9s %-14s %11s %8s %7s\n" \
      "$n" "$ov" "$os" "$ost" "$ot" "$om" "$av" "$as" "$ast" "$at" "$am"
    if [ "$old_on" = 1 ]; then
      if exact "$ov"; then [ "$max_old" = "$((n - 1))" ] || [ "$n" = "$FIRST" ] && max_old=$n; else
        # The old search answers "none found*" (incomplete) past its budget: keep going
        # while it answers at all, so that the table shows where it stops.
        [ "$ov" = "none*" ] || old_on=0
      fi
    fi
    if [ "$new_on" = 1 ]; then
      if exact "$av"; then max_new=$n; else new_on=0; fi
    fi
    [ "$old_on" = 0 ] && [ "$new_on" = 0 ] && break
  done
  echo "largest n answered exactly (from $FIRST on, ${LIMIT}s each): before $max_old, after $max_new"
  echo
done
