#!/usr/bin/env python3
"""Independent oracle for nfold's reachable-state counts.

This is an INDEPENDENT HAND-TRANSLATION of the family files in families/*.cub into
Python successor functions. It deliberately does not parse the .cub language and
shares no code with nfold: every transition was transcribed by hand from the .cub
text, following /work/shared/LANGUAGE.md (interleaving, one transition instance per
step, transition parameters pairwise distinct process ids 1..n, simultaneous updates
that read the old state, unconstrained init variables take every value of their type,
range types evaluated at N = n). Its output (tests/oracle/counts.txt) is the source of
the state counts pinned in nfold's Rust tests.

For each family and size n it reports, by plain breadth-first search:
  states   number of reachable states (no reduction)
  orbits   number of orbits of reachable states under ALL n! permutations of process
           ids (brute force: canonical form = least image over every permutation;
           a permutation moves cells indexed by processes, both indices of a
           [proc, proc] array, and renames every process-valued cell). Only for the
           fully symmetric families. Cross-checked with Burnside's lemma and by
           checking that the reachable set is closed under every permutation
           (for n <= 4).
  viol     for each `unsafe` property: the BFS depth (number of steps) of the
           shortest path from an initial state to a violating state, or "-" if no
           reachable state violates it
  dl       shortest depth to a deadlock (a state with no enabled transition
           instance), or "-" if none (extra information)

Usage: python3 count_states.py            (the table saved in counts.txt)
       python3 count_states.py FAMILY N   (one family, one size)
"""

import itertools
import sys
import time
from collections import deque


def setat(t, k, v):
    """Tuple t with position k replaced by v."""
    return t[:k] + (v,) + t[k + 1:]


def move_cells(t, p):
    """Cells indexed by process: new[p[k]] = old[k] (positions 0-based, p maps 0..n-1)."""
    out = [None] * len(t)
    for k, v in enumerate(t):
        out[p[k]] = v
    return tuple(out)


def ren(v, p):
    """Rename a process-valued cell holding id v in 1..n."""
    return p[v - 1] + 1


# Process ids are 1..n; arrays indexed by proc are tuples with position k = id k+1.

# ---------------------------------------------------------------- mutex.cub
# type state = Idle | Want | Crit ; var Sem : bool ; array A[proc] : state
IDLE, WANT, CRIT = 0, 1, 2


class Mutex:
    name = "mutex"
    symmetric = True
    unsafe_names = ["mutex"]

    def init(self, n):
        # init (z) { A[z] = Idle && Sem = False }
        yield (False, (IDLE,) * n)

    def succ(self, n, s):
        sem, a = s
        for i in range(n):
            # req (i): A[i] = Idle -> A[i] := Want
            if a[i] == IDLE:
                yield (sem, setat(a, i, WANT))
            # enter (i): A[i] = Want && Sem = False -> A[i] := Crit; Sem := True
            if a[i] == WANT and sem is False:
                yield (True, setat(a, i, CRIT))
            # exit (i): A[i] = Crit -> A[i] := Idle; Sem := False
            if a[i] == CRIT:
                yield (False, setat(a, i, IDLE))

    def unsafe(self, n, s):
        sem, a = s
        return [sum(1 for x in a if x == CRIT) >= 2]

    def perm(self, n, s, p):
        sem, a = s
        return (sem, move_cells(a, p))


# ---------------------------------------------------------------- mutex_bug.cub
# type state = Idle | Want | Ready | Crit ; var Sem : bool ; array A[proc] : state
B_IDLE, B_WANT, B_READY, B_CRIT = 0, 1, 2, 3


class MutexBug:
    name = "mutex_bug"
    symmetric = True
    unsafe_names = ["mutex"]

    def init(self, n):
        yield (False, (B_IDLE,) * n)

    def succ(self, n, s):
        sem, a = s
        for i in range(n):
            # req (i): A[i] = Idle -> A[i] := Want
            if a[i] == B_IDLE:
                yield (sem, setat(a, i, B_WANT))
            # test (i): A[i] = Want && Sem = False -> A[i] := Ready
            if a[i] == B_WANT and sem is False:
                yield (sem, setat(a, i, B_READY))
            # enter (i): A[i] = Ready -> A[i] := Crit; Sem := True
            if a[i] == B_READY:
                yield (True, setat(a, i, B_CRIT))
            # exit (i): A[i] = Crit -> A[i] := Idle; Sem := False
            if a[i] == B_CRIT:
                yield (False, setat(a, i, B_IDLE))

    def unsafe(self, n, s):
        sem, a = s
        return [sum(1 for x in a if x == B_CRIT) >= 2]

    def perm(self, n, s, p):
        sem, a = s
        return (sem, move_cells(a, p))


# ---------------------------------------------------------------- token_mutex.cub
# type state = Idle | Want | Crit ; var Tok : proc ; array A[proc] : state
class TokenMutex:
    name = "token_mutex"
    symmetric = True
    unsafe_names = ["mutex", "crit_holds_token"]

    def init(self, n):
        # init (z) { A[z] = Idle }  -- Tok unconstrained: every process id
        for tok in range(1, n + 1):
            yield (tok, (IDLE,) * n)

    def succ(self, n, s):
        tok, a = s
        for i in range(n):
            pid = i + 1
            if a[i] == IDLE:                       # req
                yield (tok, setat(a, i, WANT))
            if a[i] == WANT and tok == pid:        # enter
                yield (tok, setat(a, i, CRIT))
            if a[i] == CRIT:                       # exit
                yield (tok, setat(a, i, IDLE))
            # pass (i j): Tok = i && A[i] <> Crit -> Tok := j   (j <> i)
            if tok == pid and a[i] != CRIT:
                for j in range(n):
                    if j != i:
                        yield (j + 1, a)

    def unsafe(self, n, s):
        tok, a = s
        mutex = sum(1 for x in a if x == CRIT) >= 2
        # unsafe crit_holds_token (z) { A[z] = Crit && Tok <> z }
        cht = any(a[z] == CRIT and tok != z + 1 for z in range(n))
        return [mutex, cht]

    def perm(self, n, s, p):
        tok, a = s
        return (ren(tok, p), move_cells(a, p))


# ---------------------------------------------------------------- token_ring.cub
class TokenRing:
    name = "token_ring"
    symmetric = False            # `j = i + 1`, `i = N` on process ids
    unsafe_names = ["mutex", "crit_holds_token"]

    def init(self, n):
        for tok in range(1, n + 1):
            yield (tok, (IDLE,) * n)

    def succ(self, n, s):
        tok, a = s
        for i in range(n):
            pid = i + 1
            if a[i] == IDLE:                       # req
                yield (tok, setat(a, i, WANT))
            if a[i] == WANT and tok == pid:        # enter
                yield (tok, setat(a, i, CRIT))
            if a[i] == CRIT:                       # exit
                yield (tok, setat(a, i, IDLE))
            # pass (i j): Tok = i && A[i] = Idle && (j = i + 1 || (i = N && j = 1)),
            # j a process id distinct from i
            if tok == pid and a[i] == IDLE:
                for jid in range(1, n + 1):
                    if jid != pid and (jid == pid + 1 or (pid == n and jid == 1)):
                        yield (jid, a)

    def unsafe(self, n, s):
        tok, a = s
        mutex = sum(1 for x in a if x == CRIT) >= 2
        cht = any(a[z] == CRIT and tok != z + 1 for z in range(n))
        return [mutex, cht]


# ---------------------------------------------------------------- mesi.cub
# type st = M | E | S | I ; array C[proc] : st
M_, E_, S_, I_ = 0, 1, 2, 3


class Mesi:
    name = "mesi"
    symmetric = True
    unsafe_names = ["modified_alone", "exclusive_alone"]

    def init(self, n):
        yield ((I_,) * n,)

    def succ(self, n, s):
        (c,) = s
        for i in range(n):
            others = [c[j] for j in range(n) if j != i]
            # read_miss_exclusive (i): C[i] = I && forall_other j. C[j] = I -> C[i] := E
            if c[i] == I_ and all(x == I_ for x in others):
                yield (setat(c, i, E_),)
            # read_miss_shared (i): C[i] = I && exists_other j. C[j] <> I
            #   C[j] := case | j = i : S | C[j] = M : S | C[j] = E : S | _ : C[j]
            if c[i] == I_ and any(x != I_ for x in others):
                new = tuple(S_ if j == i else (S_ if c[j] in (M_, E_) else c[j])
                            for j in range(n))
                yield (new,)
            # write_exclusive (i): C[i] = E -> C[i] := M
            if c[i] == E_:
                yield (setat(c, i, M_),)
            # write_shared (i): C[i] = S -> C[j] := case | j = i : M | _ : I
            if c[i] == S_:
                yield (tuple(M_ if j == i else I_ for j in range(n)),)
            # write_miss (i): C[i] = I -> same update
            if c[i] == I_:
                yield (tuple(M_ if j == i else I_ for j in range(n)),)
            # evict (i): C[i] <> I -> C[i] := I
            if c[i] != I_:
                yield (setat(c, i, I_),)

    def unsafe(self, n, s):
        (c,) = s
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
        mod = any(c[a] == M_ and c[b] != I_ for a, b in pairs)
        exc = any(c[a] == E_ and c[b] != I_ for a, b in pairs)
        return [mod, exc]

    def perm(self, n, s, p):
        return (move_cells(s[0], p),)


# ---------------------------------------------------------------- grant_mutex.cub
# type state = Idle | Want | Crit ; array A[proc] : state ; array Grant[proc, proc] : bool
class GrantMutex:
    name = "grant_mutex"
    symmetric = True
    unsafe_names = ["mutex"]

    # state = (A, G) with G a tuple of rows: G[x][y] = Grant[x+1, y+1]
    def init(self, n):
        # init (x y) { A[x] = Idle && Grant[x, y] = False }  (x = y included)
        yield ((IDLE,) * n, tuple((False,) * n for _ in range(n)))

    def succ(self, n, s):
        a, g = s
        for i in range(n):
            # request (i): A[i] = Idle -> A[i] := Want
            if a[i] == IDLE:
                yield (setat(a, i, WANT), g)
            # enter (i): A[i] = Want && forall_other j. Grant[j, i] = True
            if a[i] == WANT and all(g[j][i] for j in range(n) if j != i):
                yield (setat(a, i, CRIT), g)
            # leave (i): A[i] = Crit -> A[i] := Idle;
            #   Grant[x, y] := case | y = i : False | _ : Grant[x, y]
            if a[i] == CRIT:
                ng = tuple(tuple(False if y == i else g[x][y] for y in range(n))
                           for x in range(n))
                yield (setat(a, i, IDLE), ng)
        # grant (j i): A[j] = Idle && A[i] = Want && Grant[j, i] = False
        #   -> Grant[j, i] := True     (j <> i)
        for j in range(n):
            for i in range(n):
                if j != i and a[j] == IDLE and a[i] == WANT and not g[j][i]:
                    yield (a, setat(g, j, setat(g[j], i, True)))

    def unsafe(self, n, s):
        a, g = s
        return [sum(1 for x in a if x == CRIT) >= 2]

    def perm(self, n, s, p):
        a, g = s
        ng = [[None] * n for _ in range(n)]
        for x in range(n):
            for y in range(n):
                ng[p[x]][p[y]] = g[x][y]
        return (move_cells(a, p), tuple(tuple(r) for r in ng))


# ---------------------------------------------------------------- peterson.cub
# type loc = Idle | SetV | Wait | Crit ; Pc[proc] : loc ; Lev[proc] : 0 .. N-1 ;
# Victim[1 .. N-1] : proc
P_IDLE, P_SETV, P_WAIT, P_CRIT = 0, 1, 2, 3


class Peterson:
    name = "peterson"
    symmetric = True
    unsafe_names = ["mutex"]

    # state = (Pc, Lev, Victim); Victim is a tuple with position L-1 = Victim[L]
    def init(self, n):
        # init (z) { Pc[z] = Idle && Lev[z] = 0 }  -- Victim cells unconstrained
        for vic in itertools.product(range(1, n + 1), repeat=n - 1):
            yield ((P_IDLE,) * n, (0,) * n, tuple(vic))

    def may_pass(self, n, s, i):
        pc, lev, vic = s
        L = lev[i]
        assert 1 <= L <= n - 1, "range error: Victim index"
        # Victim[Lev[i]] <> i || forall_other j. Lev[j] < Lev[i]
        return vic[L - 1] != i + 1 or all(lev[j] < L for j in range(n) if j != i)

    def succ(self, n, s):
        pc, lev, vic = s
        for i in range(n):
            # start (i): Pc[i] = Idle && N > 1 -> Pc[i] := SetV; Lev[i] := 1
            if pc[i] == P_IDLE and n > 1:
                assert 1 <= n - 1
                yield (setat(pc, i, P_SETV), setat(lev, i, 1), vic)
            # start_alone (i): Pc[i] = Idle && N = 1 -> Pc[i] := Crit
            if pc[i] == P_IDLE and n == 1:
                yield (setat(pc, i, P_CRIT), lev, vic)
            # set_victim (i): Pc[i] = SetV -> Victim[Lev[i]] := i; Pc[i] := Wait
            if pc[i] == P_SETV:
                L = lev[i]
                assert 1 <= L <= n - 1, "range error: Victim index"
                yield (setat(pc, i, P_WAIT), lev, setat(vic, L - 1, i + 1))
            # climb (i): Pc[i] = Wait && Lev[i] < N - 1 && may_pass(i)
            #   -> Lev[i] := Lev[i] + 1; Pc[i] := SetV
            if pc[i] == P_WAIT and lev[i] < n - 1 and self.may_pass(n, s, i):
                assert lev[i] + 1 <= n - 1, "range error: Lev"
                yield (setat(pc, i, P_SETV), setat(lev, i, lev[i] + 1), vic)
            # enter (i): Pc[i] = Wait && Lev[i] = N - 1 && may_pass(i) -> Pc[i] := Crit
            if pc[i] == P_WAIT and lev[i] == n - 1 and self.may_pass(n, s, i):
                yield (setat(pc, i, P_CRIT), lev, vic)
            # exit (i): Pc[i] = Crit -> Pc[i] := Idle; Lev[i] := 0
            if pc[i] == P_CRIT:
                yield (setat(pc, i, P_IDLE), setat(lev, i, 0), vic)

    def unsafe(self, n, s):
        return [sum(1 for x in s[0] if x == P_CRIT) >= 2]

    def perm(self, n, s, p):
        pc, lev, vic = s
        # Pc, Lev move with the process; Victim is range-indexed (cells stay) but
        # proc-valued (values renamed)
        return (move_cells(pc, p), move_cells(lev, p), tuple(ren(v, p) for v in vic))


# ---------------------------------------------------------------- german.cub
# type msg = Empty | ReqS | ReqE | Inv | InvAck | GntS | GntE ; type cache = I | S | E
EMPTY, REQS, REQE, INV, INVACK, GNTS, GNTE = range(7)
CI, CS, CE = 0, 1, 2
# per-process record: (Cache, Chan1, Chan2, Chan3, InvSet, ShrSet)
CACHE, CH1, CH2, CH3, INVSET, SHRSET = range(6)


class German:
    name = "german"
    symmetric = True
    unsafe_names = ["coherence"]

    # state = (ExGntd, CurCmd, CurPtr, procs) with procs a tuple of per-process records
    def init(self, n):
        rec = (CI, EMPTY, EMPTY, EMPTY, False, False)
        # ExGntd = False && CurCmd = Empty; CurPtr unconstrained: every process id
        for ptr in range(1, n + 1):
            yield (False, EMPTY, ptr, (rec,) * n)

    def succ(self, n, s):
        ex, cmd, ptr, P = s

        def upd(i, **kw):
            r = list(P[i])
            for k, v in kw.items():
                r[{"cache": CACHE, "ch1": CH1, "ch2": CH2, "ch3": CH3,
                   "inv": INVSET, "shr": SHRSET}[k]] = v
            return setat(P, i, tuple(r))

        for i in range(n):
            pid = i + 1
            r = P[i]
            # send_req_s (i): Chan1[i] = Empty && Cache[i] = I -> Chan1[i] := ReqS
            if r[CH1] == EMPTY and r[CACHE] == CI:
                yield (ex, cmd, ptr, upd(i, ch1=REQS))
            # send_req_e (i): Chan1[i] = Empty && (Cache[i] = I || Cache[i] = S)
            if r[CH1] == EMPTY and r[CACHE] in (CI, CS):
                yield (ex, cmd, ptr, upd(i, ch1=REQE))
            # recv_req_s (i) / recv_req_e (i): CurCmd = Empty && Chan1[i] = ReqS/ReqE
            #   -> CurCmd := ReqS/ReqE; CurPtr := i; Chan1[i] := Empty;
            #      InvSet[j] := case | _ : ShrSet[j]
            if cmd == EMPTY and r[CH1] in (REQS, REQE):
                newP = tuple(
                    (q[CACHE], EMPTY if j == i else q[CH1], q[CH2], q[CH3], q[SHRSET],
                     q[SHRSET])
                    for j, q in enumerate(P))
                yield (ex, r[CH1], pid, newP)
            # send_inv (i): Chan2[i] = Empty && InvSet[i] = True &&
            #   (CurCmd = ReqE || (CurCmd = ReqS && ExGntd = True))
            #   -> Chan2[i] := Inv; InvSet[i] := False
            if r[CH2] == EMPTY and r[INVSET] and (cmd == REQE or (cmd == REQS and ex)):
                yield (ex, cmd, ptr, upd(i, ch2=INV, inv=False))
            # send_inv_ack (i): Chan2[i] = Inv && Chan3[i] = Empty
            #   -> Chan2[i] := Empty; Chan3[i] := InvAck; Cache[i] := I
            if r[CH2] == INV and r[CH3] == EMPTY:
                yield (ex, cmd, ptr, upd(i, ch2=EMPTY, ch3=INVACK, cache=CI))
            # recv_inv_ack (i): Chan3[i] = InvAck && CurCmd <> Empty
            #   -> Chan3[i] := Empty; ShrSet[i] := False; ExGntd := False
            if r[CH3] == INVACK and cmd != EMPTY:
                yield (False, cmd, ptr, upd(i, ch3=EMPTY, shr=False))
            # send_gnt_s (i): CurCmd = ReqS && CurPtr = i && Chan2[i] = Empty &&
            #   ExGntd = False -> Chan2[i] := GntS; ShrSet[i] := True; CurCmd := Empty
            if cmd == REQS and ptr == pid and r[CH2] == EMPTY and not ex:
                yield (ex, EMPTY, ptr, upd(i, ch2=GNTS, shr=True))
            # send_gnt_e (i): CurCmd = ReqE && CurPtr = i && Chan2[i] = Empty &&
            #   ExGntd = False && forall j. ShrSet[j] = False
            #   -> Chan2[i] := GntE; ShrSet[i] := True; ExGntd := True; CurCmd := Empty
            if (cmd == REQE and ptr == pid and r[CH2] == EMPTY and not ex
                    and all(not q[SHRSET] for q in P)):
                yield (True, EMPTY, ptr, upd(i, ch2=GNTE, shr=True))
            # recv_gnt_s (i): Chan2[i] = GntS -> Cache[i] := S; Chan2[i] := Empty
            if r[CH2] == GNTS:
                yield (ex, cmd, ptr, upd(i, cache=CS, ch2=EMPTY))
            # recv_gnt_e (i): Chan2[i] = GntE -> Cache[i] := E; Chan2[i] := Empty
            if r[CH2] == GNTE:
                yield (ex, cmd, ptr, upd(i, cache=CE, ch2=EMPTY))

    def unsafe(self, n, s):
        P = s[3]
        # unsafe coherence (z1 z2) { Cache[z1] = E && Cache[z2] <> I }, z1 <> z2
        return [any(P[a][CACHE] == CE and P[b][CACHE] != CI
                    for a in range(n) for b in range(n) if a != b)]

    def perm(self, n, s, p):
        ex, cmd, ptr, P = s
        return (ex, cmd, ren(ptr, p), move_cells(P, p))


FAMILIES = [Peterson(), German(), GrantMutex(), MutexBug(), TokenMutex(), Mesi(),
            Mutex(), TokenRing()]


# ---------------------------------------------------------------- exploration
def explore(fam, n):
    """BFS; returns (states set, depth of first violation per unsafe, deadlock depth)."""
    depth = {}
    queue = deque()
    for s in fam.init(n):
        if s not in depth:
            depth[s] = 0
            queue.append(s)
    first_viol = [None] * len(fam.unsafe_names)
    first_dl = None
    while queue:
        s = queue.popleft()
        d = depth[s]
        for k, bad in enumerate(fam.unsafe(n, s)):
            if bad and first_viol[k] is None:
                first_viol[k] = d
        enabled = False
        for t in fam.succ(n, s):
            enabled = True
            if t not in depth:
                depth[t] = d + 1
                queue.append(t)
        if not enabled and first_dl is None:
            first_dl = d
    return depth, first_viol, first_dl


def orbits(fam, n, states):
    perms = list(itertools.permutations(range(n)))
    canon = set()
    for s in states:
        canon.add(min(fam.perm(n, s, p) for p in perms))
    return len(canon)


def check_symmetry(fam, n, states):
    """Reachable set closed under every permutation; Burnside count of orbits."""
    perms = list(itertools.permutations(range(n)))
    fixed = 0
    for p in perms:
        for s in states:
            t = fam.perm(n, s, p)
            if t not in states:
                raise AssertionError("%s n=%d: reachable set not closed under %r"
                                     % (fam.name, n, p))
            if t == s:
                fixed += 1
    assert fixed % len(perms) == 0
    return fixed // len(perms)


def run(fam, n, verify=True):
    t0 = time.time()
    states, viol, dl = explore(fam, n)
    row = {"states": len(states), "viol": viol, "dl": dl}
    if fam.symmetric:
        row["orbits"] = orbits(fam, n, states)
        if verify:
            b = check_symmetry(fam, n, states)
            assert b == row["orbits"], "Burnside %d != canonical %d" % (b, row["orbits"])
    row["secs"] = time.time() - t0
    return row


def fmt(fam, n, row):
    viol = " ".join("%s=%s" % (name, "-" if d is None else d)
                    for name, d in zip(fam.unsafe_names, row["viol"]))
    orb = str(row["orbits"]) if "orbits" in row else "n/a"
    dl = "-" if row["dl"] is None else str(row["dl"])
    return "%-12s %2d %10d %8s   dl=%-2s  %s" % (fam.name, n, row["states"], orb, dl, viol)


# sizes n = 5 that finish in under a minute in CPython (measured: grant_mutex ~35s,
# peterson ~59s for BFS + brute-force orbits; german n = 5 is far beyond that)
N5 = {"grant_mutex", "mutex_bug", "token_mutex", "mesi", "mutex", "token_ring",
      "peterson"}


def closed_forms(fam, n, row):
    """Cross-check against the closed forms stated in the family header comments."""
    exp = None
    if fam.name == "mutex":
        exp = (2 ** n + n * 2 ** (n - 1), 2 * n + 1)
    elif fam.name == "token_mutex":
        exp = (n * 3 * 2 ** (n - 1), 3 * n)
    elif fam.name == "mesi":
        exp = (3, 3) if n == 1 else (2 ** n + 2 * n, n + 3)
    elif fam.name == "token_ring":
        exp = (n * 3 * 2 ** (n - 1), None)
    if exp is None:
        return None
    got = (row["states"], row.get("orbits"))
    return "ok" if got == exp else "DISAGREES with header %r" % (exp,)


def main(argv):
    fams = {f.name: f for f in FAMILIES}
    if len(argv) == 3:
        fam, n = fams[argv[1]], int(argv[2])
        row = run(fam, n)
        print(fmt(fam, n, row), " (%.1fs)" % row["secs"], file=sys.stdout)
        return
    print("# generated by tests/oracle/count_states.py (independent hand-translation)")
    print("# columns: family n states orbits(n/a = not symmetric) "
          "dl=shortest deadlock depth, then per unsafe property the shortest "
          "violation depth ('-' = never violated)")
    for fam in FAMILIES:
        for n in range(1, 6):
            if n == 5 and fam.name not in N5:
                continue
            # Burnside / closure cross-check of the orbit count for n <= 4 only (at
            # n = 5 it would multiply the run time by about three)
            row = run(fam, n, verify=(n <= 4))
            line = fmt(fam, n, row)
            cf = closed_forms(fam, n, row)
            if cf is not None:
                line += "   [header closed form: %s]" % cf
            print(line, flush=True)
            print("%s n=%d %.1fs" % (fam.name, n, row["secs"]), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
