#!/usr/bin/env python3
"""Cubicle's example corpus against nfold: loading, verdicts at small sizes, agreement.

Run through benches/cubicle_corpus.sh (which builds nfold and unpacks the corpus):

    benches/cubicle_corpus.sh ../shared/corpus/cubicle-3f76135.tar.gz

For every .cub file of the corpus (sorted by path):

* `loads`, or the first error of `nfold info` (the file name and position cut off);
* the explicit engine's verdict at sizes 1, 2, 3: `nfold check FILE --sizes 1..3
  --engine explicit --json --timeout T` (T = $TIMEOUT, default 20 s per file), one cell
  per size: `ok` (every property holds), `BAD` (some property or a range error is
  violated; the shortest depth follows, e.g. `BAD@8`), `win@d` (no violation by the runs
  within the int window, which a run leaves at depth d), `vac` (no initial state at that
  size), `-` (not answered within the time limit or memory);
* Cubicle's expected verdict and where it comes from, from what is reliable:
  `make` = Makefile.in's test lists (`test_good`: SAFE, `test_bad`: UNSAFE),
  `bench` = the list of examples/bench (a run counts as a success only with exit code
  0, i.e. SAFE), `comment` = a header comment that states it ("=> UNSAFE",
  "-> safe in ..."; "our inserted bug" in hierarchical_snoop marks the guard whose
  removal inserts the bug, so it says nothing about the file), `cubicle` = Cubicle's own answer when
  $CUBICLE names a Cubicle binary (`cubicle.opt -nocolor -quiet`, with Makefile.in's
  options for the file, within $CUBICLE_TIMEOUT seconds, default 20, and when that
  times out without options once more with `-brab 2`; or the answers
  saved in $CUBICLE_VERDICTS, lines `file<TAB>options<TAB>answer<TAB>seconds`);
  `?` = unknown;
* agreement: SAFE (for every n) needs no violation at any size nfold answered; UNSAFE
  needs a violation at some size 1..3; `yes`, `NO`, or `open` (nothing to compare:
  unknown expectation, or no answered size, or only vacuous sizes).

Then the counts: files that load, the failures by cause, and the agreement summary.
Markdown (`| ... |` rows) so the table can go into docs/cubicle.md as it is.
"""

import json
import os
import re
import subprocess
import sys
from collections import Counter

NF = sys.argv[1]
ROOT = sys.argv[2]  # the unpacked corpus (contains cubicle/)
TIMEOUT = int(os.environ.get("TIMEOUT", "20"))
CUBICLE = os.environ.get("CUBICLE")
CUBICLE_TIMEOUT = int(os.environ.get("CUBICLE_TIMEOUT", "20"))
CUB = os.path.join(ROOT, "cubicle")


def files():
    out = []
    for d, _, fs in os.walk(ROOT):
        for f in fs:
            if f.endswith(".cub"):
                out.append(os.path.relpath(os.path.join(d, f), ROOT))
    return sorted(out)


def expectations():
    """file (relative to cubicle/) -> (verdict, source, cubicle options)."""
    exp = {}
    mk = open(os.path.join(CUB, "Makefile.in")).read()
    for kind, f, opts in re.findall(r"call test_(good|bad),([^,)]+)(?:,([^)]*))?\)", mk):
        exp[f.strip()] = ("SAFE" if kind == "good" else "UNSAFE", "make", opts.strip())
    bench = open(os.path.join(CUB, "examples", "bench")).read()
    m = re.search(r'FILES="([^"]*)"', bench)
    for f in m.group(1).split() if m else []:
        exp.setdefault("examples/" + f, ("SAFE", "bench", ""))
    return exp


def comment_verdict(text):
    head = "\n".join(text.splitlines()[:8])
    if re.search(r"\(\*[^*]*=>\s*UNSAFE", head):
        return "UNSAFE"
    if re.search(r"->\s*safe in", head):
        return "SAFE"
    return None


def cause(msg):
    msg = re.sub(r"`([^`]*)`", r"<\1>", msg)
    msg = re.sub(r"<(int|real|bool|proc|requires|candidate|case|_|!|not|=|module)>", r"`\1`", msg)
    return re.sub(r"<[^>]*>", "`…`", msg)


def load(path):
    r = subprocess.run([NF, "info", path], capture_output=True, text=True)
    if r.returncode == 0:
        return None
    for line in r.stderr.splitlines():
        if ": error: " in line:
            return line.split(": error: ", 1)[1]
    return (r.stderr.splitlines() or ["?"])[0]


def run_check(path, sizes):
    try:
        r = subprocess.run(
            [NF, "check", path, *sizes, "--engine", "explicit", "--json",
             "--timeout", str(TIMEOUT), "--quiet"],
            capture_output=True, text=True, timeout=TIMEOUT + 30)
    except subprocess.TimeoutExpired:
        return None, ""
    try:
        return json.loads(r.stdout), r.stderr
    except json.JSONDecodeError:
        return None, r.stderr


def check(path):
    """Per size 1..3: 'ok', 'BAD@d', 'vac', '-' (no answer) or 'n/a' (a size other than
    the one the model fixes with `number_procs`)."""
    doc, err = run_check(path, ["--sizes", "1..3"])
    fixed = re.search(r"fixes the size to (\d+)", err)
    if doc is None and fixed:
        doc, _ = run_check(path, ["--size", fixed.group(1)])
    if doc is None:
        return ["-", "-", "-"]
    cells = []
    for n in (1, 2, 3):
        if fixed and n != int(fixed.group(1)):
            cells.append("n/a")
            continue
        rows = [x for x in doc.get("results", []) if x.get("size") == n]
        vs = [x["verdict"] for x in rows]
        real = [x for x in rows if x["verdict"] == "violated" and x.get("property") != "int_bound"]
        left = [x for x in rows if x["verdict"] == "violated" and x.get("property") == "int_bound"]
        if real:
            d = min(x["depth"] for x in real)
            cells.append(f"BAD@{d}")
        elif left:
            # No violation by the runs within the int window, which a run leaves at
            # depth d: a bounded answer.
            d = min(x["depth"] for x in left)
            cells.append(f"win@{d}")
        elif rows and all(v == "vacuous" for v in vs):
            cells.append("vac")
        elif rows and all(v == "holds" for v in vs):
            cells.append("ok")
        else:
            cells.append("-")
    return cells


def saved_answers():
    """Cubicle's answers saved by an earlier run ($CUBICLE_VERDICTS: file, options,
    answer, seconds; tab-separated), so that a rerun need not run Cubicle again."""
    path = os.environ.get("CUBICLE_VERDICTS")
    out = {}
    if path:
        for line in open(path):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                a = parts[2]
                if a.startswith("error"):
                    a = "refused"
                elif a not in ("SAFE", "UNSAFE", "timeout", "refused"):
                    a = "no answer"
                out[parts[0]] = a
    return out


SAVED = saved_answers()


def cubicle(rel, opts):
    if rel in SAVED:
        return SAVED[rel]
    if not CUBICLE:
        return None
    try:
        r = subprocess.run([CUBICLE, "-nocolor", "-quiet", *opts.split(), rel],
                           capture_output=True, text=True, timeout=CUBICLE_TIMEOUT, cwd=CUB)
    except subprocess.TimeoutExpired:
        if opts:
            return "timeout"
        # A second try with BRAB (Cubicle's approximations), as the test list runs
        # most of the protocols.
        return cubicle(rel, "-brab 2")
    if "The system is SAFE" in r.stdout:
        return "SAFE"
    if re.search(r"^UNSAFE", r.stdout, re.M):
        return "UNSAFE"
    if r.returncode == 2:
        return "refused"
    return "no answer"


def agree(exp, cells):
    answered = [c for c in cells if c not in ("-", "n/a")]
    bad = [c for c in cells if c.startswith("BAD")]
    if exp is None or not answered or all(c == "vac" for c in answered):
        return "open"
    if exp == "SAFE":
        return "NO" if bad else "yes"
    return "yes" if bad else ("NO" if "-" not in cells else "open")


def main():
    exp = expectations()
    rows = []
    causes = Counter()
    loads = 0
    summary = Counter()
    print("| file | nfold loads | n=1 | n=2 | n=3 | Cubicle expects | agree |")
    print("|---|---|---|---|---|---|---|")
    for f in files():
        rel = os.path.relpath(f, "cubicle")
        path = os.path.join(ROOT, f)
        text = open(path, errors="replace").read()
        e, src, opts = exp.get(rel, (None, None, ""))
        if e is None:
            c = comment_verdict(text)
            if c:
                e, src = c, "comment"
        cub = cubicle(rel, opts)
        if e is None and cub in ("SAFE", "UNSAFE"):
            e, src = cub, "cubicle"
        shown = f"{e} ({src})" if e else "?"
        if cub and src != "cubicle":
            shown += f"; cubicle: {cub}"
        elif cub and e is None:
            shown = f"? (cubicle: {cub})"
        err = load(path)
        if err is not None:
            causes[cause(err)] += 1
            short = err if len(err) <= 90 else err[:87] + "..."
            short = short.replace("|", "\\|")
            print(f"| {rel} | no: {short} | | | | {shown} | refused |")
            summary["refused"] += 1
            continue
        loads += 1
        cells = check(path)
        a = agree(e, cells)
        summary[a] += 1
        print(f"| {rel} | yes | {' | '.join(cells)} | {shown} | {a} |")
        sys.stdout.flush()
    total = len(files())
    print()
    print(f"{loads} of {total} files load")
    if causes:
        print("failures by cause:")
        for c, k in causes.most_common():
            print(f"  {k:3d} {c}")
    print("agreement: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.items())))


main()
