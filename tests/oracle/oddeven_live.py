#!/usr/bin/env python3
"""Independent oracle for families/oddeven_sort_live.cub and oddeven_sort_live_bug.cub.

A hand translation (no .cub parsing, no code shared with nfold) of the never-ending
odd-even transposition sort: width n, m = 3n positions holding 0 or 1, all 2^m initial
sequences, Phase starting False (even round). Round r compares the pairs (P, P+1) of
1-based positions with P odd when r is even, P even when r is odd, all at once, and
puts the smaller value left. The buggy twin skips the pair (3n-1, 3n) when n is odd.

The property is `F sorted` (the dissertation's AF sorted). The system is deterministic
from each initial state, and `sorted` is absorbing (a round changes nothing in a sorted
sequence), so `F sorted` holds from an initial state iff the sequence it ends in is
sorted. Every round that changes a sequence swaps an inverted pair and so lowers its
number of inversions; once two consecutive rounds (one of each parity) change nothing,
nothing ever changes again. The oracle therefore runs rounds until two consecutive
rounds change no sequence at all and then reads off which final sequences are sorted.

All 2^m initial sequences are simulated at once, bit-parallel: position p is one Python
integer whose bit x is the value at p in initial sequence x, so a compare-exchange of
positions (a, b) is (a & b, a | b). Large widths are cut into chunks of 2^24 sequences.
For n <= 4 a plain one-sequence-at-a-time simulation checks the bit-parallel one.

Usage: oddeven_live.py [MAXN]   (default 10; n = 10 takes about a minute per variant)
Prints, per variant and width: the number of initial sequences from which `F sorted`
fails, and whether they are exactly "last element 0 and some other element 1"; for
n <= 4 also the number of reachable states (sequence, Phase), which `nfold check FILE
--sizes 1..4 --no-symmetry` reports as its state count, and an FNV-1a digest of the
whole reachable state graph as `nfold dot FILE --size N` draws it (sorted lines
"SOURCE LABEL -> TARGET LABEL"), pinned in tests/families_new.rs.
"""
import sys

CHUNK_BITS = 24


def pairs(m, phase, n, bug):
    """0-based left positions p of the pairs (p, p+1) compared in a round of `phase`."""
    out = []
    for p in range(m - 1):
        if (p % 2 == 0) == (phase == 0):  # 1-based P = p + 1 odd <=> p even
            if bug and n % 2 == 1 and p == m - 2:
                continue
            out.append(p)
    return out


def pattern(p, width):
    """Integer of `width` bits whose bit x is bit p of x (p < width)."""
    block = ((1 << (1 << p)) - 1) << (1 << p)  # 2^p zeros then 2^p ones
    period = 1 << (p + 1)
    v = block
    length = period
    while length < (1 << width):
        v |= v << length
        length *= 2
    return v


def failing_vector(n, bug):
    """Yield (chunk width, unsorted-at-the-end vector, expected vector) per chunk."""
    m = 3 * n
    c = min(m, CHUNK_BITS)
    full = (1 << (1 << c)) - 1
    low = [pattern(p, c) for p in range(c)]
    rounds = [pairs(m, 0, n, bug), pairs(m, 1, n, bug)]
    for hi in range(1 << (m - c)):
        v = low + [full if (hi >> (p - c)) & 1 else 0 for p in range(c, m)]
        phase, quiet = 0, 0
        while quiet < 2:
            changed = False
            for p in rounds[phase]:
                a, b = v[p], v[p + 1]
                lo_, hi_ = a & b, a | b
                if lo_ != a:
                    changed = True
                v[p], v[p + 1] = lo_, hi_
            quiet = 0 if changed else quiet + 1
            phase ^= 1
        unsorted = 0
        for p in range(m - 1):
            unsorted |= v[p] & ~v[p + 1]
        unsorted &= full
        yield c, unsorted, hi


def expected_failing(n, c, hi):
    """Initial sequences with last element 0 and some other element 1 (chunk hi)."""
    m = 3 * n
    full = (1 << (1 << c)) - 1
    init = [pattern(p, c) for p in range(c)] + [
        full if (hi >> (p - c)) & 1 else 0 for p in range(c, m)]
    some_one = 0
    for p in range(m - 1):
        some_one |= init[p]
    return (~init[m - 1] & full) & some_one


def plain(n, bug):
    """One sequence at a time: the set of initial sequences that never get sorted."""
    m = 3 * n
    bad = set()
    for x in range(1 << m):
        s = [(x >> p) & 1 for p in range(m)]
        seen = set()
        phase = 0
        while (tuple(s), phase) not in seen:
            seen.add((tuple(s), phase))
            for p in pairs(m, phase, n, bug):
                if s[p] > s[p + 1]:
                    s[p], s[p + 1] = s[p + 1], s[p]
            phase ^= 1
        # The run is now on its cycle; it is sorted forever or never (absorbing).
        if any(s[p] > s[p + 1] for p in range(m - 1)):
            bad.add(x)
    return bad


def reachable(n, bug):
    """Number of reachable states (sequence, Phase) from all initial sequences."""
    m = 3 * n
    seen = set()
    for x in range(1 << m):
        s, phase = tuple((x >> p) & 1 for p in range(m)), 0
        while (s, phase) not in seen:
            seen.add((s, phase))
            t = list(s)
            for p in pairs(m, phase, n, bug):
                if t[p] > t[p + 1]:
                    t[p], t[p + 1] = t[p + 1], t[p]
            s, phase = tuple(t), phase ^ 1
    return len(seen)


def label(n, s, phase):
    """A state as `nfold dot` labels it: E=[[row 1],[row 2],...] Phase=False."""
    rows = ",".join("[" + ",".join(str(v) for v in s[3 * j:3 * j + 3]) + "]"
                    for j in range(n))
    return f"E=[{rows}] Phase={'True' if phase else 'False'}"


def graph_digest(n, bug):
    """FNV-1a (64 bits) of the sorted lines "SOURCE -> TARGET" of the reachable state
    graph, states labelled as `nfold dot` labels them, lines joined by newlines."""
    m = 3 * n
    lines = set()
    for x in range(1 << m):
        s, phase = tuple((x >> p) & 1 for p in range(m)), 0
        while True:
            t = list(s)
            for p in pairs(m, phase, n, bug):
                if t[p] > t[p + 1]:
                    t[p], t[p + 1] = t[p + 1], t[p]
            line = f"{label(n, s, phase)} -> {label(n, tuple(t), phase ^ 1)}"
            if line in lines:
                break
            lines.add(line)
            s, phase = tuple(t), phase ^ 1
    h = 0xcbf29ce484222325
    for byte in "\n".join(sorted(lines)).encode():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x} ({len(lines)} edges)"


def main():
    maxn = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    for bug in (False, True):
        name = "oddeven_sort_live_bug" if bug else "oddeven_sort_live"
        failing_widths = []
        for n in range(1, maxn + 1):
            count, exact = 0, True
            bits = []
            for c, vec, hi in failing_vector(n, bug):
                count += bin(vec).count("1")
                exact &= vec == expected_failing(n, c, hi)
                if n <= 4:
                    bits += [hi * (1 << c) + x for x in range(1 << c) if (vec >> x) & 1]
            if n <= 4:
                assert set(bits) == plain(n, bug), f"{name} n={n}: bit-parallel != plain"
            verdict = "VIOLATED" if count else "holds"
            if count:
                failing_widths.append(n)
            # At odd n the buggy twin must fail exactly from "last 0, some other 1".
            shape = ("exactly last=0 and some 1" if exact else "NOT the predicted set")
            show = bug and n % 2 == 1
            states = (f" reachable states {reachable(n, bug)}, graph digest "
                      f"{graph_digest(n, bug)}" if n <= 4 else "")
            print(f"{name:24s} n={n:2d} eventually_sorted {verdict:8s} "
                  f"violating initial sequences {count} of {2 ** (3 * n)}"
                  + (f" ({shape})" if show else "") + states, flush=True)
        print(f"{name}: failing widths {failing_widths}")


if __name__ == "__main__":
    main()
