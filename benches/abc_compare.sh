#!/usr/bin/env bash
# nfold's IC3 against ABC's PDR on the same transition system, in one run.
#
# For German's protocol (families/german.cub) and N = 6, 8, 10, 12 (or the sizes given
# as arguments) it measures the CPU seconds (user + system, /usr/bin/time) of
#   nfold check families/german.cub --sizes 1..N --engine ic3      (release build)
#   berkeley-abc -c "read x.aig; pdr"
# where x.aig is nfold's own AIGER of the aggregate 1..N (`nfold aiger --sizes 1..N`),
# once as written by default (bits constant in the initial states as latch reset
# values) and once with --init-inputs (every bit read from an input at time 0), and
# prints each verdict and the ratio ABC / nfold per N. The export itself is not timed.
#
# Needs Debian's `berkeley-abc`. ABC_LIMIT (seconds, default 600) bounds each ABC run
# through pdr's own -T; a run that hits it is reported as `undecided`.
set -euo pipefail
cd "$(dirname "$0")/.."

ABC=${ABC:-berkeley-abc}
LIMIT=${ABC_LIMIT:-600}
FAMILY=families/german.cub
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(6 8 10 12)

command -v "$ABC" >/dev/null || { echo "abc_compare: $ABC is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "abc_compare: /usr/bin/time is missing (Debian: time)" >&2; exit 2; }
cargo build --release --quiet
NFOLD=target/release/nfold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu CMD...: run, leave its output in $tmp/out, print user+system seconds.
cpu() {
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$tmp/out" 2>&1 || true
    awk '{ printf "%.2f", $1 + $2 }' "$tmp/time"
}

nfold_verdict() {
    if grep -q '^holds at sizes' "$tmp/out"; then echo holds
    elif grep -qi 'violated' "$tmp/out"; then echo violated
    else echo unknown; fi
}

abc_verdict() {
    if grep -q 'Property proved' "$tmp/out"; then echo holds
    elif grep -q 'was asserted in frame' "$tmp/out"; then echo violated
    else echo undecided; fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f×", a / b; else print "-" }'; }

echo "German's protocol, aggregate 1..N: CPU seconds (user + system), ratio = ABC / nfold"
echo "ABC: $("$ABC" -c 'version' 2>/dev/null | grep -m1 'UC Berkeley' || echo "$ABC"), pdr -T $LIMIT"
echo
printf '| N | latches / ANDs | nfold ic3 | ABC pdr (reset values) | ratio | ABC pdr (--init-inputs) | ratio |\n'
printf '|---|---|---|---|---|---|---|\n'
for n in "${SIZES[@]}"; do
    t_nfold=$(cpu "$NFOLD" check "$FAMILY" --sizes "1..$n" --engine ic3)
    v_nfold=$(nfold_verdict)
    "$NFOLD" aiger "$FAMILY" --sizes "1..$n" -o "$tmp/reset.aig" 2>/dev/null
    "$NFOLD" aiger "$FAMILY" --sizes "1..$n" --init-inputs -o "$tmp/inputs.aig" 2>/dev/null
    shape=$(head -c 200 "$tmp/reset.aig" | head -1 | awk '{ print $4 " / " $6 }')
    t_reset=$(cpu "$ABC" -c "read $tmp/reset.aig; pdr -T $LIMIT")
    v_reset=$(abc_verdict)
    t_inputs=$(cpu "$ABC" -c "read $tmp/inputs.aig; pdr -T $LIMIT")
    v_inputs=$(abc_verdict)
    printf '| %s | %s | %s s %s | %s s %s | %s | %s s %s | %s |\n' \
        "$n" "$shape" "$t_nfold" "$v_nfold" "$t_reset" "$v_reset" "$(ratio "$t_reset" "$t_nfold")" \
        "$t_inputs" "$v_inputs" "$(ratio "$t_inputs" "$t_nfold")"
done
