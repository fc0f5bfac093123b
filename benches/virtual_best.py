#!/usr/bin/env python3
"""The default engine against the virtual best single engine (benches/virtual_best.sh).

Runs every model of the command line in three modes (`check`, `live`, `live --fair`),
each with the default engine and each single engine, times every run by the wall clock,
and compares, per (property, size) pair, the default with the fastest single engine that
answered the pair. The default's time for a pair is when its run showed the pair's row
(rows are printed as each is decided, in the table's order; the JSON's `shown_at`): the
wall time less what the run did after it. A pair still over the target is asked again
alone (`--sizes s..s --property p`, the run recorded as engine `default@p@s`): an
engine's run may answer a few pairs of the range, the default's run answers them all in
the order of the sizes, and timing the whole run against one pair measures the other
pairs, not the route. Both figures are printed; the pair's ratio is the smaller.
Standard library only.

    virtual_best.py FILE.cub...          measure (NFOLD, SIZES, LIMIT, OUT from the environment;
                                         MODES, e.g. `check,live --fair`, to run only some modes;
                                         ALONE=0: no reruns of slow pairs alone)
    virtual_best.py --report RUNS.jsonl...  print the tables again from earlier measurements
                                         (a later run of the same model, mode and engine wins)
"""
import json
import os
import subprocess
import sys
import time

MODES = [
    ("check", "check", False, ["explicit", "sat", "ic3", "kind"]),
    ("live", "live", False, ["explicit", "sat", "ic3", "kind", "bdd", "rank"]),
    ("live --fair", "live", True, ["explicit", "sat", "ic3", "kind", "bdd", "rank"]),
]
# Definitive answers (docs/engines.md, "Verdicts"); `no_violation_up_to`, `incomplete`,
# `unknown` and `within_int_window` are not.
ANSWERS = {"holds", "violated", "vacuous"}


def run_one(nfold, sub, model, sizes, limit, fair, engine, extra=()):
    cmd = [nfold, sub, model, "--sizes", sizes, "--json", "--quiet", "--timeout", str(limit), *extra]
    if fair:
        cmd.append("--fair")
    if engine:
        cmd += ["--engine", engine]
    # The guard: nfold ends itself within a fraction of a second of --timeout and still
    # reports the sizes answered; `timeout` is there for a run that does not.
    guard = ["timeout", "-k", "5", str(limit + 15)]
    load = os.getloadavg()[0]
    t0 = time.monotonic()
    with subprocess.Popen(guard + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        try:
            out, err = p.communicate()
        except BaseException:
            # `timeout` runs nfold in a process group of its own, out of reach of Ctrl-C:
            # SIGTERM to `timeout` is passed on, and nfold ends cleanly
            p.terminate()
            p.wait()
            raise
    wall = time.monotonic() - t0
    rec = {"model": model, "mode": ("live --fair" if fair else sub), "engine": engine or "default",
           "command": cmd, "wall": round(wall, 4), "rc": p.returncode, "sizes": sizes,
           "limit": limit, "load": round(load, 2), "rows": [], "error": None, "status": "ran"}
    doc = None
    try:
        doc = json.loads(out)
    except ValueError:
        pass
    if p.returncode == 2:
        rec["status"] = "not applicable"
        rec["error"] = (doc or {}).get("error") or err.strip().splitlines()[-1:]
        return rec
    if p.returncode in (124, 137, -9) or doc is None or "results" not in doc:
        rec["status"] = "killed by the guard" if p.returncode in (124, 137, -9) else "no JSON"
        rec["error"] = (err.strip().splitlines() or [""])[-1][:300]
        return rec
    rec["nfold_seconds"] = doc.get("seconds")
    rec["nfold_limit"] = doc.get("limit")
    for r in doc["results"]:
        rec["rows"].append({"property": r["property"], "kind": r["kind"], "size": r["size"],
                            "verdict": r["verdict"], "engine": r.get("engine"),
                            "seconds": r.get("seconds"), "shown_at": r.get("shown_at")})
    return rec


def pair_time(rec, pair):
    """When run `rec` showed the row of `pair`: its wall time less the part of the run
    after the row (`shown_at`); the whole wall time when the row has no `shown_at`."""
    total = rec.get("nfold_seconds")
    for r in rec["rows"]:
        if (r["property"], r["size"]) == pair and r.get("shown_at") is not None and total:
            return max(0.0, rec["wall"] - (total - r["shown_at"]))
    return rec["wall"]


def answered(rec):
    """{(property, size): verdict} of the definitive answers of one run."""
    return {(r["property"], r["size"]): r["verdict"] for r in rec["rows"] if r["verdict"] in ANSWERS}


def all_verdicts(rec):
    return {(r["property"], r["size"]): r["verdict"] for r in rec["rows"]}


def fmt_pairs(pairs):
    """`mutex@2..5, inv@3` from a set of (property, size)."""
    by = {}
    for p, s in pairs:
        by.setdefault(p, []).append(s)
    parts = []
    for p in sorted(by):
        ss = sorted(by[p])
        runs, start, prev = [], ss[0], ss[0]
        for s in ss[1:] + [None]:
            if s is not None and s == prev + 1:
                prev = s
                continue
            runs.append(f"{start}" if start == prev else f"{start}..{prev}")
            if s is not None:
                start = prev = s
        parts.append(f"{p}@{','.join(runs)}")
    return ", ".join(parts)


def analyse(records):
    groups = {}
    for rec in records:
        groups.setdefault((rec["model"], rec["mode"]), {})[rec["engine"]] = rec
    order = {m[0]: i for i, m in enumerate(MODES)}
    table, misses, disagreements, per_size = [], [], [], []
    worst = (0.0, None)
    for (model, mode) in sorted(groups, key=lambda k: (k[0], order.get(k[1], 9))):
        runs = groups[(model, mode)]
        alone = {(e.split("@")[1], int(e.split("@")[2])): r for e, r in runs.items() if e.startswith("default@")}
        runs = {e: r for e, r in runs.items() if not e.startswith("default@")}
        d = runs.get("default")
        if d is None or d["status"] == "not applicable":
            if d is not None and mode == "check":
                table.append([model, mode, "-", "-", "not applicable", "-", "-"])
            continue
        singles = {e: r for e, r in runs.items() if e != "default" and r["status"] != "not applicable"}
        na = sorted(e for e, r in runs.items() if r["status"] == "not applicable")
        ans = {e: answered(r) for e, r in singles.items()}
        dans = answered(d)
        # soundness: two runs (the default included) with different definitive answers
        every = dict(ans, default=dans)
        every.update({f"default@{p}@{k}": answered(r) for (p, k), r in alone.items() if r["status"] == "ran"})
        for pair in sorted(set().union(*every.values()) if every else set()):
            vs = {e: a[pair] for e, a in every.items() if pair in a}
            if len(set(vs.values())) > 1:
                disagreements.append((model, mode, pair, vs))
        union = set().union(*ans.values()) if ans else set()
        best = {}
        for pair in union:
            t, e = min((singles[e]["wall"], e) for e in ans if pair in ans[e])
            best[pair] = (t, e)
        ratios = {}
        row_misses = []
        relieved = []
        for pair in sorted(union):
            t, e = best[pair]
            bound = 1.5 * t + 1
            if pair in dans:
                ratios[pair] = pair_time(d, pair) / bound
                # the pair's own rerun, or (for a row such as `range_error`, which no
                # --property selects) the fastest rerun at its size that answered it
                same = [r for (_, k), r in alone.items() if k == pair[1] and answered(r).get(pair) == dans[pair]]
                a = min(same, key=lambda r: pair_time(r, pair)) if same else None
                if ratios[pair] > 1 and a is not None:
                    relieved.append((pair, ratios[pair], pair_time(a, pair) / bound))
                    ratios[pair] = min(ratios[pair], pair_time(a, pair) / bound)
                if ratios[pair] > worst[0]:
                    worst = (ratios[pair], (model, mode, pair))
                if ratios[pair] > 1:
                    row_misses.append((pair, "too slow", t, e))
            else:
                row_misses.append((pair, all_verdicts(d).get(pair, "no row"), t, e))
        stopped = ", its run stopped by the limit" if d.get("nfold_limit") else ""
        for pair, why, t, e in row_misses:
            dt = pair_time(d, pair) if why == "too slow" else d["wall"]
            misses.append((model, mode, pair, why, dt, t, e, stopped))
        for pair, whole, own in relieved:
            per_size.append((model, mode, pair, whole, own))
        # the best single engine of the row: the most pairs, then the least time
        if singles:
            be = min(singles, key=lambda e: (-len(ans[e]), singles[e]["wall"]))
            bs = f"{be} {singles[be]['wall']:.2f} s"
            if len(ans[be]) < len(union):
                bs += f" ({len(ans[be])}/{len(union)} pairs)"
        else:
            bs = "-"
        extra = len(set(dans) - union)
        dcell = f"{len(set(dans) & union)}" + (f" (+{extra})" if extra else "")
        if not union:
            wr = "-"
        elif row_misses and any(w != "too slow" for _, w, _, _ in row_misses):
            wr = f"miss {sum(1 for _, w, _, _ in row_misses if w != 'too slow')}"
            if ratios:
                wr += f"; {max(ratios.values()):.2f}"
        else:
            wr = f"{max(ratios.values()):.2f}"
        dflag = "" if d["status"] == "ran" else f" ({d['status']})"
        if d.get("nfold_limit"):
            dflag += " (limit)"
        modecell = mode + (f" (n/a: {', '.join(na)})" if na else "")
        table.append([model, modecell, str(len(union)), dcell, f"{d['wall']:.2f} s{dflag}", bs, wr])
    return table, misses, disagreements, worst, per_size


def slow_pairs(records, model, mode):
    """The pairs over the target in the default's whole run (no reruns yet)."""
    _, misses, _, _, _ = analyse([r for r in records if r["model"] == model and r["mode"] == mode])
    return sorted({pair for _, _, pair, why, *_ in misses if why == "too slow"})


def report(records, elapsed=None, out=sys.stdout):
    table, misses, disagreements, worst, per_size = analyse(records)
    w = lambda s="": print(s, file=out)
    w("| model | mode | pairs answered by some engine | by the default | default time "
      "| best single engine | worst ratio |")
    w("|---|---|---|---|---|---|---|")
    for row in table:
        w("| " + " | ".join(row) + " |")
    w()
    w("ratio = the default's time to the pair's row / (1.5 x the fastest single engine answering the pair + 1 s); "
      "`(+k)`: pairs only the default answered; `miss k`: pairs some engine answered and the default did not")
    w()
    if worst[1]:
        m, mode, pair = worst[1]
        w(f"global worst ratio: {worst[0]:.2f} ({m}, {mode}, {pair[0]}@{pair[1]})")
    else:
        w("global worst ratio: - (no pair answered by the default and a single engine)")
    if per_size:
        w(f"pairs over the target in the whole run, asked again alone: {len(per_size)}")
        for m, mode, pair, whole, own in per_size:
            w(f"- {m} [{mode}] {pair[0]}@{pair[1]}: whole run {whole:.2f}; alone {own:.2f}")
    by = {}
    for m, mode, pair, why, dt, t, e, stopped in misses:
        by.setdefault((m, mode, why, round(dt, 2), stopped, e, round(t, 2)), set()).add(pair)
    w(f"misses: {len(misses)} pairs" + (":" if misses else ""))
    for (m, mode, why, dt, stopped, e, t), pairs in sorted(by.items()):
        w(f"- {m} [{mode}] {fmt_pairs(pairs)}: default {why} ({dt:.2f} s{stopped}); {e} answered in {t:.2f} s")
    if disagreements:
        w()
        w(f"!!! {len(disagreements)} DISAGREEMENTS (different definitive answers: a soundness bug) !!!")
        for m, mode, pair, vs in disagreements:
            w(f"!!! {m} [{mode}] {pair[0]}@{pair[1]}: " + ", ".join(f"{e}={v}" for e, v in sorted(vs.items())))
    else:
        w("disagreements: none")
    odd = [r for r in records if r["status"] not in ("ran", "not applicable")]
    for r in odd:
        w(f"note: {r['model']} [{r['mode']}] {r['engine']}: {r['status']} after {r['wall']:.1f} s: {r['error']}")
    for r in records:
        if r["wall"] > r["limit"] + 1:
            w(f"note: {r['model']} [{r['mode']}] {r['engine']}: {r['wall']:.1f} s of wall time "
              f"under --timeout {r['limit']} (overshoot {r['wall'] - r['limit']:.1f} s)")
    runs = sum(1 for r in records)
    loads = [r["load"] for r in records if "load" in r]
    if loads:
        w(f"load average (1 min) at the start of the runs: {min(loads):.2f} to {max(loads):.2f}, "
          f"median {sorted(loads)[len(loads) // 2]:.2f}")
    total = sum(r["wall"] for r in records)
    w(f"{runs} runs, {total / 60:.1f} min of runs" + (f", {elapsed / 60:.1f} min in all" if elapsed else ""))


def main(argv):
    if argv[:1] == ["--report"]:
        recs = [json.loads(l) for f in argv[1:] for l in open(f) if l.strip()]
        report(recs)
        return 0
    nfold = os.environ.get("NFOLD", "target/release/nfold")
    sizes = os.environ.get("SIZES", "1..8")
    limit = int(os.environ.get("LIMIT", "60"))
    out = os.environ.get("OUT", "/tmp/virtual_best.jsonl")
    files = argv
    only = [m.strip() for m in os.environ.get("MODES", "check,live,live --fair").split(",")]
    records = []
    t0 = time.monotonic()
    with open(out, "w") as fo:
        for f in files:
            for mode, sub, fair, engines in MODES:
                if mode not in only:
                    continue
                d = run_one(nfold, sub, f, sizes, limit, fair, None)
                fo.write(json.dumps(d) + "\n"); fo.flush()
                records.append(d)
                print(f"{f} [{mode}] default: {d['status']}, {d['wall']:.2f} s", file=sys.stderr)
                if d["status"] == "not applicable":
                    continue  # no property of that kind: the engines would refuse too
                for e in engines:
                    r = run_one(nfold, sub, f, sizes, limit, fair, e)
                    fo.write(json.dumps(r) + "\n"); fo.flush()
                    records.append(r)
                    print(f"{f} [{mode}] {e}: {r['status']}, {r['wall']:.2f} s, "
                          f"{len(answered(r))} answered", file=sys.stderr)
                if os.environ.get("ALONE", "1") == "0":
                    continue
                done = set()
                for p, s in slow_pairs(records, f, mode):
                    # a row no --property selects (`range_error`) is answered by the
                    # reruns of the properties beside it
                    props = [p] + [q for q, k in all_verdicts(d) if k == s and q != p]
                    for q in props:
                        if (q, s) in done:
                            continue
                        done.add((q, s))
                        r = run_one(nfold, sub, f, f"{s}..{s}", limit, fair, None, ["--property", q])
                        r["engine"] = f"default@{q}@{s}"
                        print(f"{f} [{mode}] default on {q}@{s} alone: {r['status']}, {r['wall']:.2f} s",
                              file=sys.stderr)
                        if r["status"] == "not applicable":
                            continue
                        fo.write(json.dumps(r) + "\n"); fo.flush()
                        records.append(r)
                        if answered(r).get((p, s)) is not None:
                            break
    print(f"sizes {sizes}, limit {limit} s, {os.cpu_count()} cores; raw runs in {out}")
    print()
    report(records, time.monotonic() - t0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
