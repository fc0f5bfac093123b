#!/usr/bin/env python3
"""Promela translations of the liveness models added for issue 25, at a fixed size N,
for SPIN's `pan -a [-f]` (the same conventions as benches/live_pml.py).

Usage: benches/models_pml.py MODEL N [--proc K]
  MODEL: mcs_lock, handoff_lock, readers_writers (families/MODEL.cub);
         ticket_user, dijkstra_mutex, lamport_fast, burns, szymanski, anderson
         (benches/models/MODEL.cub)
  --proc K  state the property for process K (default 1); the families without
            full symmetry (burns, szymanski) need every K checked

Each nfold process is one Promela process `P(i)`; each transition instance whose first
parameter is i is one alternative `:: d_step { guard -> updates }` of its `do` loop, so
SPIN's weak fairness (`pan -f`) is nfold's `--fair` (a process is enabled when one of
its alternatives is). Updates are ordered so that every right-hand side reads the old
state (nfold's simultaneous assignment). Initial values that the model leaves free
(process-valued variables, roles) are chosen nondeterministically inside one `atomic`
in `init`, which then starts the N processes. The property is the model's
`ltl (i) { G (p => F q) }` for process K, as `ltl live { [] (p -> <> q) }`.

Run: spin -a x.pml && gcc -O2 -DNOREDUCE -DNFAIR=k -o pan pan.c &&
     ./pan -a [-f] -m1000000 -w24, with 4k > N + 3 (an "acceptance cycle" is a
     violation)
Verdicts obtained with SPIN 6.5.2 are in each model's header and in
benches/models_spin.txt (written by benches/models_spin.sh).
"""
import sys


def one_of(var, values):
    return "if " + " ".join(f":: {var} = {v}" for v in values) + " fi"


def mcs_lock(n, w):
    w("mtype = { Idle, Fas, Lock, Link, Spin, Crit, Cas, Wait, Hand };")
    w("bool held; byte tail;")
    w(f"mtype pc[{n + 1}]; bool locked[{n + 1}]; bool hasnext[{n + 1}];")
    w(f"byte nxt[{n + 1}]; byte pred[{n + 1}];")
    w("proctype P(byte i) {")
    w("  do")
    w("  :: d_step { pc[i] == Idle -> hasnext[i] = false; nxt[i] = i; pc[i] = Fas }")
    w("  :: d_step { pc[i] == Fas && held -> pred[i] = tail; tail = i; pc[i] = Lock }")
    w("  :: d_step { pc[i] == Fas && !held -> held = true; tail = i; pc[i] = Crit }")
    w("  :: d_step { pc[i] == Lock -> locked[i] = true; pc[i] = Link }")
    w("  :: d_step { pc[i] == Link -> hasnext[pred[i]] = true; nxt[pred[i]] = i;"
      " pred[i] = i; pc[i] = Spin }")
    w("  :: d_step { pc[i] == Spin && !locked[i] -> pc[i] = Crit }")
    w("  :: d_step { pc[i] == Crit && !hasnext[i] -> pc[i] = Cas }")
    w("  :: d_step { pc[i] == Crit && hasnext[i] -> pc[i] = Hand }")
    w("  :: d_step { pc[i] == Cas && held && tail == i -> held = false; pc[i] = Idle }")
    w("  :: d_step { pc[i] == Cas && !(held && tail == i) -> pc[i] = Wait }")
    w("  :: d_step { pc[i] == Wait && hasnext[i] -> pc[i] = Hand }")
    w("  :: d_step { pc[i] == Hand -> locked[nxt[i]] = false; pc[i] = Idle }")
    w("  od")
    w("}")
    init = ["held = false", one_of("tail", range(1, n + 1))]
    for i in range(1, n + 1):
        init += [f"pc[{i}] = Idle", f"nxt[{i}] = {i}", f"pred[{i}] = {i}"]
    return init, "pc[{k}] == Fas", "pc[{k}] == Crit"


def handoff_lock(n, w):
    w("mtype = { Idle, Want, Crit };")
    w(f"mtype pc[{n + 1}];")
    w("proctype P(byte i) {")
    w("  do")
    w("  :: d_step { pc[i] == Idle -> pc[i] = Want }")
    nocrit = " && ".join(f"(i == {j} || pc[{j}] != Crit)" for j in range(1, n + 1))
    nowant = " && ".join(f"(i == {j} || pc[{j}] != Want)" for j in range(1, n + 1))
    w(f"  :: d_step {{ pc[i] == Want && {nocrit} -> pc[i] = Crit }}")
    w(f"  :: d_step {{ pc[i] == Crit && {nowant} -> pc[i] = Idle }}")
    for j in range(1, n + 1):
        w(f"  :: d_step {{ i != {j} && pc[i] == Crit && pc[{j}] == Want ->"
          f" pc[i] = Idle; pc[{j}] = Crit }}")
    w("  od")
    w("}")
    init = [f"pc[{i}] = Idle" for i in range(1, n + 1)]
    return init, "pc[{k}] == Want", "pc[{k}] == Crit"


def readers_writers(n, w):
    w("mtype = { Noncrit, Trying, Crit };")
    w(f"mtype s[{n + 1}]; bool writer[{n + 1}];")
    w("proctype P(byte i) {")
    w("  do")
    w("  :: d_step { s[i] == Noncrit -> s[i] = Trying }")
    nowriter = " && ".join(f"(i == {j} || !(writer[{j}] && s[{j}] == Crit))"
                           for j in range(1, n + 1))
    nobody = " && ".join(f"(i == {j} || s[{j}] != Crit)" for j in range(1, n + 1))
    w(f"  :: d_step {{ s[i] == Trying && !writer[i] && {nowriter} -> s[i] = Crit }}")
    w(f"  :: d_step {{ s[i] == Trying && writer[i] && {nobody} -> s[i] = Crit }}")
    w("  :: d_step { s[i] == Crit -> s[i] = Noncrit }")
    w("  od")
    w("}")
    init = []
    for i in range(1, n + 1):
        init += [f"s[{i}] = Noncrit", one_of(f"writer[{i}]", ["false", "true"])]
    return init, "s[{k}] == Trying", "s[{k}] == Crit"


def ticket_user(n, w):
    w("mtype = { Idle, Waiting, Critical };")
    w(f"byte nextt; byte now; mtype st[{n + 1}]; byte my[{n + 1}];")
    w("proctype P(byte i) {")
    w("  do")
    w(f"  :: d_step {{ st[i] == Idle -> my[i] = nextt; st[i] = Waiting;"
      f" nextt = (nextt == {n - 1} -> 0 : nextt + 1) }}")
    w("  :: d_step { st[i] == Waiting && my[i] == now -> st[i] = Critical }")
    w(f"  :: d_step {{ st[i] == Critical -> st[i] = Idle;"
      f" now = (now == {n - 1} -> 0 : now + 1) }}")
    w("  od")
    w("}")
    init = ["nextt = 0", "now = 0"] + [f"st[{i}] = Idle" for i in range(1, n + 1)]
    return init, "st[{k}] == Waiting", "st[{k}] == Critical"


def dijkstra_mutex(n, w):
    w("mtype = { Rem, L1, L2, L3, Take, L4, Scan, Crit, Exit };")
    w(f"byte k; bool b[{n + 1}]; bool c[{n + 1}]; mtype pc[{n + 1}];")
    others_free = " && ".join(f"(i == {j} || c[{j}])" for j in range(1, n + 1))
    w("proctype P(byte i) {")
    w("  do")
    w("  :: d_step { pc[i] == Rem -> b[i] = false; pc[i] = L1 }")
    w("  :: d_step { pc[i] == L1 && k != i -> pc[i] = L2 }")
    w("  :: d_step { pc[i] == L1 && k == i -> pc[i] = L4 }")
    w("  :: d_step { pc[i] == L2 -> c[i] = true; pc[i] = L3 }")
    w("  :: d_step { pc[i] == L3 && b[k] -> pc[i] = Take }")
    w("  :: d_step { pc[i] == L3 && !b[k] -> pc[i] = L1 }")
    w("  :: d_step { pc[i] == Take -> k = i; pc[i] = L1 }")
    w("  :: d_step { pc[i] == L4 -> c[i] = false; pc[i] = Scan }")
    w(f"  :: d_step {{ pc[i] == Scan && !({others_free}) -> pc[i] = L1 }}")
    w(f"  :: d_step {{ pc[i] == Scan && {others_free} -> pc[i] = Crit }}")
    w("  :: d_step { pc[i] == Crit -> c[i] = true; pc[i] = Exit }")
    w("  :: d_step { pc[i] == Exit -> b[i] = true; pc[i] = Rem }")
    w("  od")
    w("}")
    init = [one_of("k", range(1, n + 1))]
    for i in range(1, n + 1):
        init += [f"pc[{i}] = Rem", f"b[{i}] = true", f"c[{i}] = true"]
    return init, "pc[{k}] == L1", "pc[{k}] == Crit"


def lamport_fast(n, w):
    w("mtype = { Rem, Start, SetX, TestY, Back1, AwaitY, SetY, TestX, Back2, AwaitB,"
      " TestY2, AwaitY2, Crit, ResetB };")
    w(f"byte x; byte y; bool yset; bool b[{n + 1}]; mtype pc[{n + 1}];")
    allb = " && ".join(f"!b[{j}]" for j in range(1, n + 1))
    w("proctype P(byte i) {")
    w("  do")
    w("  :: d_step { pc[i] == Rem -> pc[i] = Start }")
    w("  :: d_step { pc[i] == Start -> b[i] = true; pc[i] = SetX }")
    w("  :: d_step { pc[i] == SetX -> x = i; pc[i] = TestY }")
    w("  :: d_step { pc[i] == TestY && yset -> pc[i] = Back1 }")
    w("  :: d_step { pc[i] == TestY && !yset -> pc[i] = SetY }")
    w("  :: d_step { pc[i] == Back1 -> b[i] = false; pc[i] = AwaitY }")
    w("  :: d_step { pc[i] == AwaitY && !yset -> pc[i] = Start }")
    w("  :: d_step { pc[i] == SetY -> y = i; yset = true; pc[i] = TestX }")
    w("  :: d_step { pc[i] == TestX && x == i -> pc[i] = Crit }")
    w("  :: d_step { pc[i] == TestX && x != i -> pc[i] = Back2 }")
    w("  :: d_step { pc[i] == Back2 -> b[i] = false; pc[i] = AwaitB }")
    w(f"  :: d_step {{ pc[i] == AwaitB && {allb} -> pc[i] = TestY2 }}")
    w("  :: d_step { pc[i] == TestY2 && yset && y == i -> pc[i] = Crit }")
    w("  :: d_step { pc[i] == TestY2 && !(yset && y == i) -> pc[i] = AwaitY2 }")
    w("  :: d_step { pc[i] == AwaitY2 && !yset -> pc[i] = Start }")
    w("  :: d_step { pc[i] == Crit -> yset = false; pc[i] = ResetB }")
    w("  :: d_step { pc[i] == ResetB -> b[i] = false; pc[i] = Rem }")
    w("  od")
    w("}")
    init = ["yset = false", one_of("x", range(1, n + 1)), one_of("y", range(1, n + 1))]
    init += [f"pc[{i}] = Rem" for i in range(1, n + 1)]
    return init, "pc[{k}] == Start", "pc[{k}] == Crit"


def burns(n, w):
    w("mtype = { Rem, L1, L2, L3, L4, M, Crit };")
    w(f"bool flag[{n + 1}]; mtype pc[{n + 1}];")
    # Process ids are static: one proctype per process, with its own lower/higher tests.
    for i in range(1, n + 1):
        lower = " || ".join(f"flag[{j}]" for j in range(1, i)) or "false"
        higher = " || ".join(f"flag[{j}]" for j in range(i + 1, n + 1)) or "false"
        w(f"proctype P{i}() {{")
        w("  do")
        w(f"  :: d_step {{ pc[{i}] == Rem -> pc[{i}] = L1 }}")
        w(f"  :: d_step {{ pc[{i}] == L1 -> flag[{i}] = false; pc[{i}] = L2 }}")
        w(f"  :: d_step {{ pc[{i}] == L2 && ({lower}) -> pc[{i}] = L1 }}")
        w(f"  :: d_step {{ pc[{i}] == L2 && !({lower}) -> pc[{i}] = L3 }}")
        w(f"  :: d_step {{ pc[{i}] == L3 -> flag[{i}] = true; pc[{i}] = L4 }}")
        w(f"  :: d_step {{ pc[{i}] == L4 && ({lower}) -> pc[{i}] = L1 }}")
        w(f"  :: d_step {{ pc[{i}] == L4 && !({lower}) -> pc[{i}] = M }}")
        w(f"  :: d_step {{ pc[{i}] == M && !({higher}) -> pc[{i}] = Crit }}")
        w(f"  :: d_step {{ pc[{i}] == Crit -> flag[{i}] = false; pc[{i}] = Rem }}")
        w("  od")
        w("}")
    init = [f"pc[{i}] = Rem" for i in range(1, n + 1)]
    return init, "pc[{k}] == L1", "pc[{k}] == Crit"


def szymanski(n, w):
    w("mtype = { Rem, Open, Doorway, Check, Wait2, AwaitFour, Close, Lower, Crit, Exit,"
      " Done };")
    w(f"byte flag[{n + 1}]; mtype pc[{n + 1}];")
    for i in range(1, n + 1):
        oth = [j for j in range(1, n + 1) if j != i]
        open_ = " && ".join(f"flag[{j}] < 3" for j in oth) or "true"
        some1 = " || ".join(f"flag[{j}] == 1" for j in oth) or "false"
        some4 = " || ".join(f"flag[{j}] == 4" for j in oth) or "false"
        lower = " && ".join(f"flag[{j}] < 2" for j in range(1, i)) or "true"
        higher = " && ".join(f"(flag[{j}] < 2 || flag[{j}] > 3)"
                             for j in range(i + 1, n + 1)) or "true"
        w(f"proctype P{i}() {{")
        w("  do")
        w(f"  :: d_step {{ pc[{i}] == Rem -> flag[{i}] = 1; pc[{i}] = Open }}")
        w(f"  :: d_step {{ pc[{i}] == Open && {open_} -> pc[{i}] = Doorway }}")
        w(f"  :: d_step {{ pc[{i}] == Doorway -> flag[{i}] = 3; pc[{i}] = Check }}")
        w(f"  :: d_step {{ pc[{i}] == Check && ({some1}) -> pc[{i}] = Wait2 }}")
        w(f"  :: d_step {{ pc[{i}] == Check && !({some1}) -> pc[{i}] = Close }}")
        w(f"  :: d_step {{ pc[{i}] == Wait2 -> flag[{i}] = 2; pc[{i}] = AwaitFour }}")
        w(f"  :: d_step {{ pc[{i}] == AwaitFour && ({some4}) -> pc[{i}] = Close }}")
        w(f"  :: d_step {{ pc[{i}] == Close -> flag[{i}] = 4; pc[{i}] = Lower }}")
        w(f"  :: d_step {{ pc[{i}] == Lower && {lower} -> pc[{i}] = Crit }}")
        w(f"  :: d_step {{ pc[{i}] == Crit -> pc[{i}] = Exit }}")
        w(f"  :: d_step {{ pc[{i}] == Exit && {higher} -> pc[{i}] = Done }}")
        w(f"  :: d_step {{ pc[{i}] == Done -> flag[{i}] = 0; pc[{i}] = Rem }}")
        w("  od")
        w("}")
    init = [f"pc[{i}] = Rem" for i in range(1, n + 1)]
    return init, "pc[{k}] == Open", "pc[{k}] == Crit"


def anderson(n, w):
    w("mtype = { Idle, Wait, Crit };")
    w(f"byte tail; bool flag[{n}]; byte my[{n + 1}]; mtype pc[{n + 1}];")
    w("proctype P(byte i) {")
    w("  do")
    w(f"  :: d_step {{ pc[i] == Idle -> my[i] = tail;"
      f" tail = (tail == {n - 1} -> 0 : tail + 1); pc[i] = Wait }}")
    w("  :: d_step { pc[i] == Wait && flag[my[i]] -> pc[i] = Crit }")
    # Clear the own slot first, then set the next one (they coincide when N = 1).
    w(f"  :: d_step {{ pc[i] == Crit -> flag[my[i]] = false;"
      f" flag[(my[i] == {n - 1} -> 0 : my[i] + 1)] = true; pc[i] = Idle }}")
    w("  od")
    w("}")
    init = ["tail = 0", "flag[0] = true"] + [f"pc[{i}] = Idle" for i in range(1, n + 1)]
    return init, "pc[{k}] == Wait", "pc[{k}] == Crit"


MODELS = {f.__name__: f for f in [mcs_lock, handoff_lock, readers_writers, ticket_user,
                                  dijkstra_mutex, lamport_fast, burns, szymanski,
                                  anderson]}
PER_PROCESS = {"burns", "szymanski"}


def main(argv):
    if len(argv) < 3 or argv[1] not in MODELS:
        sys.exit(__doc__.split("\n\n")[1])
    name, n = argv[1], int(argv[2])
    k = int(argv[4]) if argv[3:4] == ["--proc"] else 1
    if not 1 <= k <= n:
        sys.exit("need 1 <= K <= N")
    out = []
    w = out.append
    w(f"/* {name} at N = {n}; generated by benches/models_pml.py */")
    init, p, q = MODELS[name](n, w)
    w("init {")
    w("  atomic {")
    for s in init:
        w(f"    {s};")
    for i in range(1, n + 1):
        call = f"P{i}()" if name in PER_PROCESS else f"P({i})"
        w(f"    run {call}{';' if i < n else ''}")
    w("  }")
    w("}")
    w(f"ltl live {{ [] (({p.format(k=k)}) -> <> ({q.format(k=k)})) }}")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv)
