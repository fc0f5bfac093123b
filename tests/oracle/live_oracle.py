#!/usr/bin/env python3
"""Independent oracle for the verdicts of the lock, barrier and semaphore models added
for issues 25 and 26 (families/mcs_lock.cub, readers_writers.cub, handoff_lock.cub and
benches/models/*.cub).

Each model is an INDEPENDENT HAND TRANSLATION of its .cub file into a Python successor
function (no .cub parsing, no code shared with nfold), following docs/language.md:
interleaving, one transition instance per step, parameters pairwise distinct process
ids 1..n, every right-hand side read in the old state, initial cells that `init` leaves
free take every value of their type. The first parameter of a transition is the
process that executes it.

For each model and size n the oracle explores every reachable state (plain breadth-first
search, no symmetry reduction) and reports
  states      the number of reachable states (`nfold check --no-symmetry` reports the
              same number when no property is violated; for a violated property nfold
              stops early);
  unsafe      per `unsafe` property, the depth of a shortest path to a bad state, or
              "holds";
  ltl         per `ltl` property of the form G (p => F q) (the only form these models
              use), with and without weak fairness, the processes i for which it is
              violated (nfold checks process 1 of a fully symmetric family, and the
              processes 1, 2, ... in turn otherwise, stopping at the first violated one).

Liveness: G (p => F q) is violated for process i iff some reachable state satisfies
p and not q and starts an infinite run that never satisfies q (a run that reaches a
deadlock repeats the deadlocked state forever). On the graph of reachable states
restricted to "not q" this is a strongly connected component reachable from such a
state that contains a cycle (a self-loop, two or more states, or a deadlocked state)
and, under weak fairness, is fair: every process either executes on some edge inside
the component or is disabled (no transition instance of it enabled) in some state of
it. Cycling through the whole component is then a weakly fair run; and if some
process is enabled in every state of the component and executes on none of its edges,
no run that stays inside the component is fair, so for weak fairness no further
decomposition is needed.

Usage: live_oracle.py                      every model at its default sizes
       live_oracle.py MODEL [NMAX] [NMIN]  one model (names: see MODELS below)
"""
import sys
from collections import deque


def upd(t, k, v):
    """Tuple t with position k (0-based) replaced by v."""
    return t[:k] + (v,) + t[k + 1:]


def others(n, i):
    return [j for j in range(1, n + 1) if j != i]


# ------------------------------------------------------------------ the engine

def explore(model, n, limit=3_000_000):
    """Reachable states, their BFS depth, and labelled successor lists."""
    index, depth, succ = {}, [], []
    states = []
    queue = deque()
    for s in model.init(n):
        if s not in index:
            index[s] = len(states)
            states.append(s)
            depth.append(0)
            queue.append(s)
    while queue:
        s = queue.popleft()
        k = index[s]
        out = []
        for proc, t in model.succ(n, s):
            if t not in index:
                index[t] = len(states)
                states.append(t)
                depth.append(depth[k] + 1)
                queue.append(t)
                if len(states) > limit:
                    raise RuntimeError(f"more than {limit} states")
            out.append((proc, index[t]))
        while len(succ) <= k:
            succ.append(None)
        succ[k] = out
    return states, depth, succ


def sccs(nodes, edges):
    """Tarjan's algorithm, iterative: list of SCCs (lists of nodes) of the subgraph."""
    idx, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in nodes:
        if root in idx:
            continue
        work = [(root, iter(edges(root)))]
        idx[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in idx:
                    idx[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(edges(w))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], idx[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == idx[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def live_violated(model, n, states, succ, p, q, i, fair):
    """Whether G (p => F q) is violated for process i (None: no parameter)."""
    bad = [not q(n, s, i) for s in states]
    starts = [k for k, s in enumerate(states) if bad[k] and p(n, s, i)]
    if not starts:
        return False
    # Forward reachability inside "not q" from the start states.
    seen = set(starts)
    todo = list(starts)
    while todo:
        k = todo.pop()
        for _, t in succ[k]:
            if bad[t] and t not in seen:
                seen.add(t)
                todo.append(t)

    def edges(k):
        return [t for _, t in succ[k] if t in seen]

    for comp in sccs(sorted(seen), edges):
        members = set(comp)
        deadlock = any(not succ[k] for k in comp)
        cyclic = (len(comp) > 1 or deadlock
                  or any(t == comp[0] for _, t in succ[comp[0]]))
        if not cyclic:
            continue
        if not fair:
            return True
        ok = True
        for proc in range(1, n + 1):
            executes = any(pr == proc and t in members for k in comp for pr, t in succ[k])
            disabled = any(all(pr != proc for pr, _ in succ[k]) for k in comp)
            if not (executes or disabled):
                ok = False
                break
        if ok:
            return True
    return False


def run(model, n, live=True, quiet=False):
    """Explore size n, print one line; return (states, {unsafe: depth or None},
    {(ltl, fair): [violating processes]})."""
    states, depth, succ = explore(model, n)
    line = [f"{model.name:16s} n={n}  states {len(states):>8d}"]
    safety, liveness = {}, {}
    for name, bad in model.unsafe.items():
        ds = [depth[k] for k, s in enumerate(states) if bad(n, s)]
        safety[name] = min(ds) if ds else None
        line.append(f"{name}=" + (f"VIOLATED@{min(ds)}" if ds else "holds"))
    if live:
        for name, (param, p, q) in model.ltl.items():
            for fair in (False, True):
                procs = range(1, n + 1) if param else [None]
                viol = [i for i in procs
                        if live_violated(model, n, states, succ, p, q, i, fair)]
                liveness[(name, fair)] = viol
                tag = "fair" if fair else "unfair"
                if not viol:
                    line.append(f"{name}[{tag}]=holds")
                elif param:
                    line.append(f"{name}[{tag}]=VIOLATED(processes {viol})")
                else:
                    line.append(f"{name}[{tag}]=VIOLATED")
    if not quiet:
        print("  ".join(line), flush=True)
    return len(states), safety, liveness


# ------------------------------------------------------------------ the models

class Model:
    name = "?"
    path = None          # the .cub file translated
    unsafe = {}
    ltl = {}
    sizes = (1, 4)       # default sizes for liveness
    safety_sizes = None  # larger default sizes for safety alone


def two_in(loc_of, crit):
    """Some two distinct processes are at location `crit`."""
    return lambda n, s: sum(1 for v in loc_of(s) if v == crit) >= 2


# families/mcs_lock.cub
class Mcs(Model):
    name = "mcs_lock"
    path = "families/mcs_lock.cub"
    IDLE, FAS, LOCK, LINK, SPIN, CRIT, CAS, WAIT, HAND = range(9)
    sizes, safety_sizes = (1, 4), (1, 5)
    # state: (held, tail, pc, locked, hasnext, next, pred)

    def init(self, n):
        ids = tuple(range(1, n + 1))
        for tail in range(1, n + 1):
            yield (False, tail, (self.IDLE,) * n, (False,) * n, (False,) * n, ids, ids)

    def succ(self, n, s):
        held, tail, pc, locked, hasnext, nxt, pred = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            c = pc[k]
            if c == self.IDLE:
                out.append((i, (held, tail, upd(pc, k, self.FAS), locked,
                                upd(hasnext, k, False), upd(nxt, k, i), pred)))
            elif c == self.FAS and held:
                out.append((i, (held, i, upd(pc, k, self.LOCK), locked, hasnext, nxt,
                                upd(pred, k, tail))))
            elif c == self.FAS:
                out.append((i, (True, i, upd(pc, k, self.CRIT), locked, hasnext, nxt,
                                pred)))
            elif c == self.LOCK:
                out.append((i, (held, tail, upd(pc, k, self.LINK), upd(locked, k, True),
                                hasnext, nxt, pred)))
            elif c == self.LINK:
                pk = pred[k] - 1
                out.append((i, (held, tail, upd(pc, k, self.SPIN), locked,
                                upd(hasnext, pk, True), upd(nxt, pk, i), upd(pred, k, i))))
            elif c == self.SPIN and not locked[k]:
                out.append((i, (held, tail, upd(pc, k, self.CRIT), locked, hasnext, nxt,
                                pred)))
            elif c == self.CRIT:
                to = self.HAND if hasnext[k] else self.CAS
                out.append((i, (held, tail, upd(pc, k, to), locked, hasnext, nxt, pred)))
            elif c == self.CAS and held and tail == i:
                out.append((i, (False, tail, upd(pc, k, self.IDLE), locked, hasnext, nxt,
                                pred)))
            elif c == self.CAS:
                out.append((i, (held, tail, upd(pc, k, self.WAIT), locked, hasnext, nxt,
                                pred)))
            elif c == self.WAIT and hasnext[k]:
                out.append((i, (held, tail, upd(pc, k, self.HAND), locked, hasnext, nxt,
                                pred)))
            elif c == self.HAND:
                out.append((i, (held, tail, upd(pc, k, self.IDLE),
                                upd(locked, nxt[k] - 1, False), hasnext, nxt, pred)))
        return out

    unsafe = {"mutex": two_in(lambda s: s[2], 5)}
    ltl = {"starvation_free": (True, lambda n, s, i: s[2][i - 1] == 1,
                               lambda n, s, i: s[2][i - 1] == 5)}


# families/readers_writers.cub
class ReadersWriters(Model):
    name = "readers_writers"
    path = "families/readers_writers.cub"
    NONCRIT, TRYING, CRIT = range(3)
    sizes = (1, 6)
    # state: (S, Writer)

    def init(self, n):
        for roles in range(1 << n):
            yield ((self.NONCRIT,) * n, tuple(bool(roles >> k & 1) for k in range(n)))

    def succ(self, n, s):
        st, w = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            if st[k] == self.NONCRIT:
                out.append((i, (upd(st, k, self.TRYING), w)))
            elif st[k] == self.TRYING:
                if not w[k] and all(not (w[j - 1] and st[j - 1] == self.CRIT)
                                    for j in others(n, i)):
                    out.append((i, (upd(st, k, self.CRIT), w)))
                if w[k] and all(st[j - 1] != self.CRIT for j in others(n, i)):
                    out.append((i, (upd(st, k, self.CRIT), w)))
            else:
                out.append((i, (upd(st, k, self.NONCRIT), w)))
        return out

    unsafe = {
        "two_writers": lambda n, s: sum(1 for k in range(n)
                                        if s[0][k] == 2 and s[1][k]) >= 2,
        "writer_and_reader": lambda n, s: (any(s[0][k] == 2 and s[1][k] for k in range(n))
                                           and any(s[0][k] == 2 and not s[1][k]
                                                   for k in range(n))),
    }
    ltl = {
        "starvation_free": (True, lambda n, s, i: s[0][i - 1] == 1,
                            lambda n, s, i: s[0][i - 1] == 2),
        "progress": (False, lambda n, s, i: 1 in s[0], lambda n, s, i: 2 in s[0]),
    }


# families/handoff_lock.cub
class Handoff(Model):
    name = "handoff_lock"
    path = "families/handoff_lock.cub"
    IDLE, WANT, CRIT = range(3)
    sizes = (1, 10)

    def init(self, n):
        yield (self.IDLE,) * n

    def succ(self, n, pc):
        out = []
        for i in range(1, n + 1):
            k = i - 1
            if pc[k] == self.IDLE:
                out.append((i, upd(pc, k, self.WANT)))
            elif pc[k] == self.WANT:
                if all(pc[j - 1] != self.CRIT for j in others(n, i)):
                    out.append((i, upd(pc, k, self.CRIT)))
            else:
                if all(pc[j - 1] != self.WANT for j in others(n, i)):
                    out.append((i, upd(pc, k, self.IDLE)))
                for j in others(n, i):  # hand_over (i j)
                    if pc[j - 1] == self.WANT:
                        out.append((i, upd(upd(pc, k, self.IDLE), j - 1, self.CRIT)))
        return out

    unsafe = {"mutex": two_in(lambda s: s, 2)}
    ltl = {"starvation_free": (True, lambda n, s, i: s[i - 1] == 1,
                               lambda n, s, i: s[i - 1] == 2)}


# benches/models/rw_counter.cub (with the digit) and its projection without it
class RwCounter(Model):
    name = "rw_counter"
    path = "benches/models/rw_counter.cub"
    IDLE, READING, WRITING = range(3)
    sizes, safety_sizes = (1, 3), (1, 3)
    digit = True
    # state: (cnt, w, pc, d)

    def init(self, n):
        yield (0, False, (self.IDLE,) * n, (0,) * n)

    def succ(self, n, s):
        cnt, w, pc, d = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            if pc[k] == self.IDLE:
                if self.digit:
                    out.append((i, (cnt, w, pc, upd(d, k, 0 if d[k] == 9 else d[k] + 1))))
                if not w and cnt + 1 <= n:
                    out.append((i, (cnt + 1, w, upd(pc, k, self.READING), d)))
                if not w and cnt == 0:
                    out.append((i, (cnt, True, upd(pc, k, self.WRITING), d)))
            elif pc[k] == self.READING and cnt - 1 >= 0:
                out.append((i, (cnt - 1, w, upd(pc, k, self.IDLE), d)))
            elif pc[k] == self.WRITING:
                out.append((i, (cnt, False, upd(pc, k, self.IDLE), d)))
        return out

    unsafe = {
        "writer_with_reader": lambda n, s: 2 in s[2] and 1 in s[2],
        "two_writers": two_in(lambda s: s[2], 2),
        "writer_while_count": lambda n, s: 2 in s[2] and s[0] > 0,
        "reader_not_counted": lambda n, s: 1 in s[2] and s[0] == 0,
        # Not a property of the .cub file: the counting invariant itself.
        "(cnt_is_readers)": lambda n, s: s[0] != sum(1 for v in s[2] if v == 1),
        # A store out of 0 .. N would be a range error; the guards above refuse it,
        # so this checks that no reachable state even tries one.
        "(range_error)": lambda n, s: any(
            (v == 0 and not s[1] and s[0] + 1 > n) or (v == 1 and s[0] == 0)
            for v in s[2]),
    }


class RwCounterNoDigit(RwCounter):
    name = "rw_counter(-D)"
    path = None  # the projection without the digit has no .cub file
    digit = False
    sizes, safety_sizes = (1, 4), (1, 8)


# benches/models/semaphore_k2.cub, semaphore_k3.cub
class Semaphore(Model):
    IDLE, WANT, IN = range(3)
    sizes, safety_sizes = (1, 4), (1, 8)

    def __init__(self, k):
        self.k = k
        self.name = f"semaphore_k{k}"
        self.path = f"benches/models/semaphore_k{k}.cub"
        word = {2: "three", 3: "four"}[k]
        self.unsafe = {
            f"{word}_inside": lambda n, s: sum(1 for v in s[1] if v == self.IN) >= k + 1,
            "(range_error)": lambda n, s: any(v == self.IN for v in s[1]) and s[0] == k,
        }

    def init(self, n):
        yield (self.k, (self.IDLE,) * n)

    def succ(self, n, s):
        free, pc = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            if pc[k] == self.IDLE:
                out.append((i, (free, upd(pc, k, self.WANT))))
            elif pc[k] == self.WANT and free > 0:
                out.append((i, (free - 1, upd(pc, k, self.IN))))
            elif pc[k] == self.IN and free + 1 <= self.k:
                out.append((i, (free + 1, upd(pc, k, self.IDLE))))
        return out


# benches/models/barrier.cub and barrier_bug.cub
class Barrier(Model):
    WORKING, WAITING, PASSED = range(3)
    sizes, safety_sizes = (1, 4), (1, 10)

    def __init__(self, bug):
        self.bug = bug
        self.name = "barrier_bug" if bug else "barrier"
        self.path = f"benches/models/{self.name}.cub"

    def init(self, n):
        yield (0, (self.WORKING,) * n)

    def succ(self, n, s):
        arrived, pc = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            if pc[k] == self.WORKING and arrived + 1 <= n:
                out.append((i, (arrived + 1, upd(pc, k, self.WAITING))))
            elif pc[k] == self.WAITING and (arrived >= 3 if self.bug else arrived == n):
                out.append((i, (arrived, upd(pc, k, self.PASSED))))
        return out

    unsafe = {"early_pass": lambda n, s: 2 in s[1] and 0 in s[1]}


# benches/models/ticket_user.cub
class TicketUser(Model):
    name = "ticket_user"
    path = "benches/models/ticket_user.cub"
    IDLE, WAITING, CRITICAL = range(3)
    sizes, safety_sizes = (1, 5), (1, 6)

    def init(self, n):
        yield (0, 0, (self.IDLE,) * n, (0,) * n)

    def succ(self, n, s):
        nxt, now, st, my = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            if st[k] == self.IDLE:
                out.append((i, (0 if nxt == n - 1 else nxt + 1, now,
                                upd(st, k, self.WAITING), upd(my, k, nxt))))
            elif st[k] == self.WAITING and my[k] == now:
                out.append((i, (nxt, now, upd(st, k, self.CRITICAL), my)))
            elif st[k] == self.CRITICAL:
                out.append((i, (nxt, 0 if now == n - 1 else now + 1,
                                upd(st, k, self.IDLE), my)))
        return out

    unsafe = {"two_inside": two_in(lambda s: s[2], 2)}
    ltl = {"no_starvation": (True, lambda n, s, i: s[2][i - 1] == 1,
                             lambda n, s, i: s[2][i - 1] == 2)}


# benches/models/dijkstra_mutex.cub
class Dijkstra(Model):
    name = "dijkstra_mutex"
    path = "benches/models/dijkstra_mutex.cub"
    REM, L1, L2, L3, TAKE, L4, SCAN, CRIT, EXIT = range(9)
    sizes, safety_sizes = (1, 4), (1, 5)
    # state: (k, b, c, pc)

    def init(self, n):
        for k in range(1, n + 1):
            yield (k, (True,) * n, (True,) * n, (self.REM,) * n)

    def succ(self, n, s):
        kk, b, c, pc = s
        out = []
        for i in range(1, n + 1):
            x = i - 1
            p = pc[x]
            if p == self.REM:
                out.append((i, (kk, upd(b, x, False), c, upd(pc, x, self.L1))))
            elif p == self.L1:
                out.append((i, (kk, b, c, upd(pc, x, self.L4 if kk == i else self.L2))))
            elif p == self.L2:
                out.append((i, (kk, b, upd(c, x, True), upd(pc, x, self.L3))))
            elif p == self.L3:
                out.append((i, (kk, b, c, upd(pc, x, self.TAKE if b[kk - 1] else self.L1))))
            elif p == self.TAKE:
                out.append((i, (i, b, c, upd(pc, x, self.L1))))
            elif p == self.L4:
                out.append((i, (kk, b, upd(c, x, False), upd(pc, x, self.SCAN))))
            elif p == self.SCAN:
                free = all(c[j - 1] for j in others(n, i))
                out.append((i, (kk, b, c, upd(pc, x, self.CRIT if free else self.L1))))
            elif p == self.CRIT:
                out.append((i, (kk, b, upd(c, x, True), upd(pc, x, self.EXIT))))
            else:
                out.append((i, (kk, upd(b, x, True), c, upd(pc, x, self.REM))))
        return out

    unsafe = {"mutex": two_in(lambda s: s[3], 7)}
    ltl = {"starvation_free": (True, lambda n, s, i: s[3][i - 1] == 1,
                               lambda n, s, i: s[3][i - 1] == 7)}


# benches/models/lamport_fast.cub
class LamportFast(Model):
    name = "lamport_fast"
    path = "benches/models/lamport_fast.cub"
    (REM, START, SETX, TESTY, BACK1, AWAITY, SETY, TESTX, BACK2, AWAITB, TESTY2,
     AWAITY2, CRIT, RESETB) = range(14)
    sizes, safety_sizes = (1, 3), (1, 4)
    # state: (x, y, yset, b, pc)

    def init(self, n):
        for x in range(1, n + 1):
            for y in range(1, n + 1):
                yield (x, y, False, (False,) * n, (self.REM,) * n)

    def succ(self, n, s):
        x, y, yset, b, pc = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            p = pc[k]

            def go(loc, **ch):
                out.append((i, (ch.get("x", x), ch.get("y", y), ch.get("yset", yset),
                                ch.get("b", b), upd(pc, k, loc))))
            if p == self.REM:
                go(self.START)
            elif p == self.START:
                go(self.SETX, b=upd(b, k, True))
            elif p == self.SETX:
                go(self.TESTY, x=i)
            elif p == self.TESTY:
                go(self.BACK1 if yset else self.SETY)
            elif p == self.BACK1:
                go(self.AWAITY, b=upd(b, k, False))
            elif p == self.AWAITY and not yset:
                go(self.START)
            elif p == self.SETY:
                go(self.TESTX, y=i, yset=True)
            elif p == self.TESTX:
                go(self.CRIT if x == i else self.BACK2)
            elif p == self.BACK2:
                go(self.AWAITB, b=upd(b, k, False))
            elif p == self.AWAITB and not any(b):
                go(self.TESTY2)
            elif p == self.TESTY2:
                go(self.CRIT if (yset and y == i) else self.AWAITY2)
            elif p == self.AWAITY2 and not yset:
                go(self.START)
            elif p == self.CRIT:
                go(self.RESETB, yset=False)
            elif p == self.RESETB:
                go(self.REM, b=upd(b, k, False))
        return out

    unsafe = {"mutex": two_in(lambda s: s[4], 12)}
    ltl = {"starvation_free": (True, lambda n, s, i: s[4][i - 1] == 1,
                               lambda n, s, i: s[4][i - 1] == 12)}


# benches/models/burns.cub
class Burns(Model):
    name = "burns"
    path = "benches/models/burns.cub"
    REM, L1, L2, L3, L4, M, CRIT = range(7)
    sizes, safety_sizes = (1, 4), (1, 6)
    # state: (flag, pc)

    def init(self, n):
        yield ((False,) * n, (self.REM,) * n)

    def succ(self, n, s):
        flag, pc = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            p = pc[k]
            lower = any(flag[j - 1] for j in range(1, i))
            if p == self.REM:
                out.append((i, (flag, upd(pc, k, self.L1))))
            elif p == self.L1:
                out.append((i, (upd(flag, k, False), upd(pc, k, self.L2))))
            elif p == self.L2:
                out.append((i, (flag, upd(pc, k, self.L1 if lower else self.L3))))
            elif p == self.L3:
                out.append((i, (upd(flag, k, True), upd(pc, k, self.L4))))
            elif p == self.L4:
                out.append((i, (flag, upd(pc, k, self.L1 if lower else self.M))))
            elif p == self.M:
                if not any(flag[j - 1] for j in range(i + 1, n + 1)):
                    out.append((i, (flag, upd(pc, k, self.CRIT))))
            else:
                out.append((i, (upd(flag, k, False), upd(pc, k, self.REM))))
        return out

    unsafe = {"mutex": two_in(lambda s: s[1], 6)}
    ltl = {"starvation_free": (True, lambda n, s, i: s[1][i - 1] == 1,
                               lambda n, s, i: s[1][i - 1] == 6)}


# benches/models/szymanski.cub
class Szymanski(Model):
    name = "szymanski"
    path = "benches/models/szymanski.cub"
    (REM, OPEN, DOORWAY, CHECK, WAIT2, AWAITFOUR, CLOSE, LOWER, CRIT, EXIT,
     DONE) = range(11)
    sizes, safety_sizes = (1, 4), (1, 5)
    # state: (flag, pc)

    def init(self, n):
        yield ((0,) * n, (self.REM,) * n)

    def succ(self, n, s):
        flag, pc = s
        out = []
        for i in range(1, n + 1):
            k = i - 1
            p = pc[k]
            oth = [flag[j - 1] for j in others(n, i)]

            def go(loc, f=None):
                out.append((i, (flag if f is None else upd(flag, k, f), upd(pc, k, loc))))
            if p == self.REM:
                go(self.OPEN, 1)
            elif p == self.OPEN and all(v < 3 for v in oth):
                go(self.DOORWAY)
            elif p == self.DOORWAY:
                go(self.CHECK, 3)
            elif p == self.CHECK:
                go(self.WAIT2 if 1 in oth else self.CLOSE)
            elif p == self.WAIT2:
                go(self.AWAITFOUR, 2)
            elif p == self.AWAITFOUR and 4 in oth:
                go(self.CLOSE)
            elif p == self.CLOSE:
                go(self.LOWER, 4)
            elif p == self.LOWER and all(flag[j - 1] < 2 for j in range(1, i)):
                go(self.CRIT)
            elif p == self.CRIT:
                go(self.EXIT)
            elif p == self.EXIT and all(flag[j - 1] < 2 or flag[j - 1] > 3
                                        for j in range(i + 1, n + 1)):
                go(self.DONE)
            elif p == self.DONE:
                go(self.REM, 0)
        return out

    unsafe = {"mutex": two_in(lambda s: s[1], 8)}
    ltl = {"starvation_free": (True, lambda n, s, i: s[1][i - 1] == 1,
                               lambda n, s, i: s[1][i - 1] == 8)}


# benches/models/anderson.cub
class Anderson(Model):
    name = "anderson"
    path = "benches/models/anderson.cub"
    IDLE, WAIT, CRIT = range(3)
    sizes, safety_sizes = (1, 4), (1, 6)
    # state: (tail, flag over slots 0..n-1, myslot, pc)

    def init(self, n):
        yield (0, tuple(s == 0 for s in range(n)), (0,) * n, (self.IDLE,) * n)

    def succ(self, n, s):
        tail, flag, my, pc = s
        nxt = lambda v: 0 if v == n - 1 else v + 1  # noqa: E731
        out = []
        for i in range(1, n + 1):
            k = i - 1
            if pc[k] == self.IDLE:
                out.append((i, (nxt(tail), flag, upd(my, k, tail), upd(pc, k, self.WAIT))))
            elif pc[k] == self.WAIT and flag[my[k]]:
                out.append((i, (tail, flag, my, upd(pc, k, self.CRIT))))
            elif pc[k] == self.CRIT:
                f = tuple(True if sl == nxt(my[k]) else False if sl == my[k] else flag[sl]
                          for sl in range(n))
                out.append((i, (tail, f, my, upd(pc, k, self.IDLE))))
        return out

    unsafe = {"mutex": two_in(lambda s: s[3], 2)}
    ltl = {"starvation_free": (True, lambda n, s, i: s[3][i - 1] == 1,
                               lambda n, s, i: s[3][i - 1] == 2)}


MODELS = {m.name: m for m in [
    Mcs(), ReadersWriters(), Handoff(), RwCounter(), RwCounterNoDigit(), Semaphore(2),
    Semaphore(3), Barrier(False), Barrier(True), TicketUser(), Dijkstra(),
    LamportFast(), Burns(), Szymanski(), Anderson()]}


def main(argv):
    if len(argv) > 1:
        m = MODELS[argv[1]]
        hi = int(argv[2]) if len(argv) > 2 else m.sizes[1]
        lo = int(argv[3]) if len(argv) > 3 else 1
        for n in range(lo, hi + 1):
            run(m, n, live=bool(m.ltl))
        return
    for m in MODELS.values():
        lo, hi = m.sizes
        for n in range(lo, hi + 1):
            run(m, n, live=bool(m.ltl))
        if m.safety_sizes and m.safety_sizes[1] > hi:
            for n in range(hi + 1, m.safety_sizes[1] + 1):
                run(m, n, live=False)


if __name__ == "__main__":
    main(sys.argv)
