#!/usr/bin/env python3
"""The default command idle and beside one CPU-bound job (benches/under_load.sh).
Standard library only."""
import json
import os
import statistics
import subprocess
import sys
import time


def verdicts(doc):
    """(property, size) -> verdict of a `--json` document."""
    out = {}
    for r in (doc or {}).get("results", []):
        out[(r.get("property"), r.get("size"))] = r.get("verdict")
    return out


def run(cmd, limit):
    t0 = time.monotonic()
    p = subprocess.run(["timeout", "-k", "5", str(limit + 15)] + cmd + ["--timeout", str(limit)],
                       capture_output=True, text=True)
    wall = time.monotonic() - t0
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return wall, p.returncode, verdicts(doc)


def burner():
    """One CPU-bound job: a busy loop in its own process."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def has_ltl(path):
    with open(path) as f:
        return any(line.lstrip().startswith("ltl ") for line in f)


def main(files):
    nfold, sizes = os.environ["NFOLD"], os.environ["SIZES"]
    runs, limit = int(os.environ["RUNS"]), int(os.environ["LIMIT"])
    rows, worst = [], 0.0
    print("| command | idle (s) | loaded (s) | ratio | same answers |")
    print("|---|---|---|---|---|")
    for f in files:
        subs = [["check"]] + ([["live"], ["live", "--fair"]] if has_ltl(f) else [])
        only = os.environ.get("MODES")
        if only:
            subs = [s for s in subs if " ".join(s) in [m.strip() for m in only.split(",")]]
        for sub in subs:
            cmd = [nfold, sub[0], f, "--sizes", sizes, "--json", "--quiet"] + sub[1:]
            idle, loaded, answers = [], [], []
            for _ in range(runs):
                w, rc, v = run(cmd, limit)
                idle.append(w)
                answers.append((rc, v))
                b = burner()
                time.sleep(0.2)
                try:
                    w, rc, v = run(cmd, limit)
                finally:
                    b.kill()
                    b.wait()
                loaded.append(w)
                answers.append((rc, v))
            same = all(a == answers[0] for a in answers)
            i, l = statistics.median(idle), statistics.median(loaded)
            ratio = l / max(i, 0.05)
            # Sub-second runs: the ratio of two noise-sized numbers says little.
            counted = i >= 0.5 or l >= 1.0
            if counted:
                worst = max(worst, ratio)
            name = f"{' '.join(sub)} {os.path.relpath(f)}"
            print(f"| {name} | {i:.2f} | {l:.2f} | {ratio:.2f}{'' if counted else ' (short)'} | {'yes' if same else 'NO'} |",
                  flush=True)
            rows.append((name, same))
    print(f"\nworst ratio (runs of 0.5 s or more idle): {worst:.2f} (target <= 2.5)")
    differ = [n for n, s in rows if not s]
    if differ:
        print("ANSWERS DIFFER under load: " + ", ".join(differ))


if __name__ == "__main__":
    main(sys.argv[1:])
