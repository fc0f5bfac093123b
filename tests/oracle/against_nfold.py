#!/usr/bin/env python3
"""Runs the oracle of tests/oracle/live_oracle.py and nfold side by side on the same
models and sizes and reports every disagreement (a cross-check for a person to run,
not a test: nfold's output is never the source of an expected verdict).

Compared per size: the number of reachable states (`nfold check --no-symmetry
--no-dead-cells --engine explicit`, when no property is violated: nfold stops early
otherwise), the verdict and shortest depth of every `unsafe` property, and the verdict
of every `ltl` property with and without --fair (`nfold live`, default options:
process 1 of a fully symmetric family; the first violated process otherwise, which
must be the least process the oracle finds violated).

Usage: against_nfold.py [MODEL ...]   (default: every model with a file, at the
       oracle's default sizes); needs target/release/nfold (cargo build --release).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live_oracle  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NFOLD = os.path.join(ROOT, "target", "release", "nfold")


def nfold(args):
    out = subprocess.run([NFOLD] + args + ["--json"], cwd=ROOT, capture_output=True,
                         text=True)
    return json.loads(out.stdout)


def compare(model, lo, hi, live_hi):
    bad = 0
    sizes = f"{lo}..{hi}"
    chk = nfold(["check", model.path, "--sizes", sizes, "--no-symmetry",
                 "--no-dead-cells", "--engine", "explicit"])
    lives = {}
    if model.ltl and live_hi >= lo:
        for fair in (False, True):
            v = nfold(["live", model.path, "--sizes", f"{lo}..{live_hi}"]
                      + (["--fair"] if fair else []))
            for r in v["results"]:
                lives[(r["size"], r["property"], fair)] = (r["verdict"], r["process"])
    for n in range(lo, hi + 1):
        states, safety, liveness = live_oracle.run(model, n, live=n <= live_hi,
                                                   quiet=True)
        rows = [r for r in chk["results"] if r["size"] == n]
        msgs = []
        for r in rows:
            want = safety[r["property"]]
            got = r["verdict"]
            if want is None and got != "holds":
                msgs.append(f"{r['property']}: oracle holds, nfold {got}")
            elif want is not None and (got != "violated" or r["depth"] != want):
                msgs.append(f"{r['property']}: oracle violated@{want}, nfold {got}"
                            f"@{r['depth']}")
        if all(safety[r["property"]] is None for r in rows) and rows:
            if rows[0]["states"] != states:
                msgs.append(f"states: oracle {states}, nfold {rows[0]['states']}")
        for (name, fair), viol in liveness.items():
            got, proc = lives.get((n, name, fair), (None, None))
            tag = "fair" if fair else "unfair"
            if not viol and got != "holds":
                msgs.append(f"{name}[{tag}]: oracle holds, nfold {got}")
            elif viol:
                want_proc = min(viol) if model.ltl[name][0] else None
                if got != "violated" or proc != want_proc:
                    msgs.append(f"{name}[{tag}]: oracle violated {viol}, nfold {got} "
                                f"(process {proc})")
        status = "agree" if not msgs else "DISAGREE: " + "; ".join(msgs)
        bad += bool(msgs)
        print(f"{model.name:16s} n={n}: {status}", flush=True)
    return bad


def main(argv):
    names = argv[1:] or [m for m, x in live_oracle.MODELS.items() if x.path]
    bad = 0
    for name in names:
        m = live_oracle.MODELS[name]
        hi = max(m.sizes[1], (m.safety_sizes or m.sizes)[1])
        bad += compare(m, 1, hi, m.sizes[1])
    print("all agree" if not bad else f"{bad} size(s) disagree")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main(sys.argv)
