#!/usr/bin/env python3
"""Promela translation of a liveness family at a fixed size N, for SPIN's `pan -a [-f]`.

Usage: benches/live_pml.py FAMILY N [--proc K | --all]
  FAMILY: peterson, mutex, token_ring, ticket_lock (families/FAMILY.cub)
  --proc K  state the property for process K (default 1)
  --all     state it for every process at once (a conjunction), i.e. nfold's
            "for every process i"; needed only for families without symmetry

The translation keeps nfold's transition system and fairness notion exactly:

* Every nfold process is its own Promela process (`proctype P(byte i)`, run N times),
  so SPIN's weak fairness (`pan -f`) is nfold's `--fair`: a process is enabled when
  one of its alternatives is, and executes when one of them fires.
* Every transition instance whose first parameter is i is one alternative
  `:: d_step { guard -> updates }` of the `do` loop of process i. A transition with
  further parameters (token_ring's `pass (i j)`) gives one alternative per choice of
  the others (distinct from i); choices whose guard is false for static reasons
  (arithmetic on ids and N) are left out. Updates are written so that every
  right-hand side reads the old state (nfold's simultaneous assignment).
* Initial values that the family leaves unconstrained (Peterson's Victim cells,
  token_ring's Tok) are chosen nondeterministically by `init` inside one `atomic`
  that then starts the N processes, as benches/peterson_pml.py does.
* The property is the family's `ltl starvation_free (i)` for process K (default 1),
  as the Promela formula `ltl starve { [] (want -> <> crit) }`. For the fully
  symmetric families (peterson, mutex, ticket_lock) process 1 stands for all;
  token_ring is symmetric under rotation of the ring, so process 1 stands for all
  there too (nfold, which does not know rotations, checks every process).

Running it: `spin -a x.pml; gcc -O2 -DNOREDUCE -DNFAIR=k -o pan pan.c;
./pan -a [-f] -m... -w...`, with k >= 2 and 4k > N + 3 (pan counts init and the claim
among its processes and refuses -f otherwise). -DNOREDUCE turns off partial-order
reduction so SPIN explores every interleaving, as nfold does (on these families POR
changes no count anyway).

Caveats when comparing numbers with nfold:

* Reachability is the same transition system: with `-DSAFETY -DNOCLAIM` SPIN stores
  exactly nfold's reachable-state count + 1 for all four families (checked for
  N = 1..5 against `nfold check --no-symmetry`): the extra state is the initial one,
  before `init` runs; the states inside init's `atomic` are not stored. `init` (pid 0)
  stays in every state vector, finished, because processes die only in reverse order
  of creation.
* For `-a`, "states, stored" counts product states (system state x never-claim state),
  with `-f` also the fairness copies (Choueka counter), and "visited" additionally the
  revisits of the nested (second) search; these are products of SPIN's own never claim
  and fairness construction, so they match nfold's live counts only up to such
  constructions, not exactly.
* Deadlocks: nfold repeats a deadlocked state forever (a stutter that belongs to no
  process). SPIN does the same by default (stutter extension of finite runs;
  `-DNOSTUTTER` would turn it off), and its fairness counts blocked processes as
  served, so a deadlock cycle is fair in both. It does not matter for these families
  anyway: none has a reachable deadlock (`gcc -DSAFETY -DNOCLAIM`, `./pan` reports no
  invalid end state for any family at N = 1..5; a process blocked at the head of its
  `do` would be one).

SPIN 6.5.2 verdicts for `starvation_free` of process 1 (acceptance cycle found or not),
N = 1..5, `pan -a` / `pan -a -f`:
  peterson     unfair: holds N <= 2, violated N >= 3   fair: holds N = 1..5
  mutex        unfair: holds N = 1, violated N >= 2    fair: same as unfair
  token_ring   unfair: holds N = 1, violated N >= 2    fair: same as unfair
  ticket_lock  unfair: holds N = 1..5                  fair: holds N = 1..5
Peterson at N = 2 holds even without fairness: the other process, having made itself
the victim, blocks at level 1 while process 1 is at SetV or Wait, so process 1 is the
only one that can move. token_ring is violated under weak *process* fairness: the
holder may cycle Idle -> Want -> Crit -> Idle forever and never pass the token (its
process executes, so it is served), while the waiting process is never enabled.
ticket_lock holds without fairness: once process 1 waits, every other process ends up
waiting behind it in ticket order, and only the ticket being served can move.
"""
import sys


def peterson(n, w):
    w("mtype = { Idle, SetV, Wait, Crit };")
    w(f"mtype pc[{n + 1}];")
    w(f"byte lev[{n + 1}];")
    w(f"byte victim[{max(n, 1)}];")
    w("proctype P(byte i) {")
    w("  do")
    # may_pass(i): Victim[Lev[i]] <> i || forall_other j. Lev[j] < Lev[i]
    # (the others are not known statically inside P(i), so spell them per process
    #  with a loop-free formula: every process other than i has lev < lev[i])
    alone = " && ".join(f"(i == {j} || lev[{j}] < lev[i])" for j in range(1, n + 1))
    may_pass = f"(victim[lev[i]] != i || ({alone}))"
    if n > 1:
        w("  :: d_step { pc[i] == Idle -> pc[i] = SetV; lev[i] = 1 }")
    else:
        w("  :: d_step { pc[i] == Idle -> pc[i] = Crit }")
    w("  :: d_step { pc[i] == SetV -> victim[lev[i]] = i; pc[i] = Wait }")
    w(f"  :: d_step {{ pc[i] == Wait && lev[i] < {n - 1} && {may_pass} -> lev[i] = lev[i] + 1; pc[i] = SetV }}")
    w(f"  :: d_step {{ pc[i] == Wait && lev[i] == {n - 1} && {may_pass} -> pc[i] = Crit }}")
    w("  :: d_step { pc[i] == Crit -> pc[i] = Idle; lev[i] = 0 }")
    w("  od")
    w("}")
    init = [f"pc[{i}] = Idle" for i in range(1, n + 1)]
    for lv in range(1, n):
        init.append("if " + " ".join(f":: victim[{lv}] = {v}" for v in range(1, n + 1)) + " fi")
    return init, ("pc[{k}] == SetV", "pc[{k}] == Crit")


def mutex(n, w):
    w("mtype = { Idle, Want, Crit };")
    w("bool sem;")
    w(f"mtype a[{n + 1}];")
    w("proctype P(byte i) {")
    w("  do")
    w("  :: d_step { a[i] == Idle -> a[i] = Want }")
    w("  :: d_step { a[i] == Want && !sem -> a[i] = Crit; sem = true }")
    w("  :: d_step { a[i] == Crit -> a[i] = Idle; sem = false }")
    w("  od")
    w("}")
    init = [f"a[{i}] = Idle" for i in range(1, n + 1)] + ["sem = false"]
    return init, ("a[{k}] == Want", "a[{k}] == Crit")


def token_ring(n, w):
    w("mtype = { Idle, Want, Crit };")
    w("byte tok;")
    w(f"mtype a[{n + 1}];")
    w("proctype P(byte i) {")
    w("  do")
    w("  :: d_step { a[i] == Idle -> a[i] = Want }")
    w("  :: d_step { a[i] == Want && tok == i -> a[i] = Crit }")
    w("  :: d_step { a[i] == Crit -> a[i] = Idle }")
    # pass (i j): Tok = i && A[i] = Idle && (j = i + 1 || (i = N && j = 1)), j <> i.
    # The only j is succ(i) (none when n = 1, where succ(1) = 1 = i).
    if n > 1:
        w(f"  :: d_step {{ tok == i && a[i] == Idle -> tok = (i == {n} -> 1 : i + 1) }}")
    w("  od")
    w("}")
    init = [f"a[{i}] = Idle" for i in range(1, n + 1)]
    init.append("if " + " ".join(f":: tok = {v}" for v in range(1, n + 1)) + " fi")
    return init, ("a[{k}] == Want", "a[{k}] == Crit")


def ticket_lock(n, w):
    w("mtype = { Idle, Wait, Crit };")
    w(f"mtype pc[{n + 1}];")
    w(f"byte ticket[{n + 1}];")
    w("byte next;")
    w("byte serving;")
    w("proctype P(byte i) {")
    w("  do")
    # ticket[i] reads the old next before next changes: sequential order is right.
    w(f"  :: d_step {{ pc[i] == Idle -> ticket[i] = next; next = (next == {n} -> 0 : next + 1); pc[i] = Wait }}")
    w("  :: d_step { pc[i] == Wait && ticket[i] == serving -> pc[i] = Crit }")
    w(f"  :: d_step {{ pc[i] == Crit -> pc[i] = Idle; serving = (serving == {n} -> 0 : serving + 1) }}")
    w("  od")
    w("}")
    init = [f"pc[{i}] = Idle" for i in range(1, n + 1)]
    init += [f"ticket[{i}] = 0" for i in range(1, n + 1)] + ["next = 0", "serving = 0"]
    return init, ("pc[{k}] == Wait", "pc[{k}] == Crit")


FAMILIES = {"peterson": peterson, "mutex": mutex, "token_ring": token_ring,
            "ticket_lock": ticket_lock}


def main(argv):
    if len(argv) < 3 or argv[1] not in FAMILIES:
        sys.exit(__doc__.split("\n\n")[1] if len(argv) < 3 else
                 f"unknown family {argv[1]!r}; one of: {', '.join(FAMILIES)}")
    fam, n = argv[1], int(argv[2])
    procs = [1]
    rest = argv[3:]
    if rest[:1] == ["--all"]:
        procs = list(range(1, n + 1))
    elif rest[:1] == ["--proc"] and len(rest) > 1:
        procs = [int(rest[1])]
    elif rest:
        sys.exit(f"unknown option {' '.join(rest)}")
    if n < 1 or any(not 1 <= k <= n for k in procs):
        sys.exit("need 1 <= K <= N")
    out = []
    w = out.append
    w(f"/* families/{fam}.cub at N = {n}, one Promela process per nfold process;")
    w("   generated by benches/live_pml.py */")
    init, (want, crit) = FAMILIES[fam](n, w)
    w("init {")
    w("  atomic {")
    for s in init:
        w(f"    {s};")
    for i in range(1, n + 1):
        w(f"    run P({i}){';' if i < n else ''}")
    w("  }")
    w("}")
    body = " && ".join(
        f"[] (({want.format(k=k)}) -> <> ({crit.format(k=k)}))" for k in procs)
    w(f"ltl starve {{ {body} }}")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv)
