# SPIN cross-check (optional) of the mutex.cub and mesi.cub counts in counts.txt.
# Emits a Promela model with ONE process whose loop body is one d_step per
# (transition, process) instance, so the stored state vector is exactly the model's
# variables (Sem, A[] / C[]) plus a constant program counter: SPIN's "states, stored"
# equals the reachable-state count 1:1.  Usage:
#   python3 spin_mutex_mesi.py mutex 4 > m.pml && spin -a m.pml &&
#   gcc -O1 -DNOREDUCE -DSAFETY -o pan pan.c && ./pan | grep 'states, stored'
# Result (Spin 6.5.2): mutex 3 8 20 48 112, mesi 3 8 14 24 42 for n = 1..5.
import sys
model, n = sys.argv[1], int(sys.argv[2])
out = []
if model == "mutex":
    out.append("#define IDLE 0\n#define WANT 1\n#define CRIT 2")
    out.append("bool Sem = false;\nbyte A[%d];" % n)   # zero-initialised = IDLE
    alts = []
    for i in range(n):
        alts.append(":: d_step { A[%d] == IDLE -> A[%d] = WANT }" % (i, i))
        alts.append(":: d_step { A[%d] == WANT && !Sem -> A[%d] = CRIT; Sem = true }" % (i, i))
        alts.append(":: d_step { A[%d] == CRIT -> A[%d] = IDLE; Sem = false }" % (i, i))
else:  # mesi: M=0 E=1 S=2 I=3
    out.append("#define M 0\n#define E 1\n#define S 2\n#define I 3")
    out.append("byte C[%d] = I;" % n)
    alts = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        allI = " && ".join("C[%d] == I" % j for j in others) or "true"
        someV = " || ".join("C[%d] != I" % j for j in others) or "false"
        alts.append(":: d_step { C[%d] == I && (%s) -> C[%d] = E }" % (i, allI, i))
        shared = "; ".join(["C[%d] = S" % i] + ["if :: (C[%d] == M || C[%d] == E) -> C[%d] = S :: else -> skip fi" % (j, j, j) for j in others])
        alts.append(":: d_step { C[%d] == I && (%s) -> %s }" % (i, someV, shared))
        alts.append(":: d_step { C[%d] == E -> C[%d] = M }" % (i, i))
        wr = "; ".join(["C[%d] = M" % i] + ["C[%d] = I" % j for j in others])
        alts.append(":: d_step { C[%d] == S -> %s }" % (i, wr))
        alts.append(":: d_step { C[%d] == I -> %s }" % (i, wr))
        alts.append(":: d_step { C[%d] != I -> C[%d] = I }" % (i, i))
out.append("active proctype P() {\n  do\n  " + "\n  ".join(alts) + "\n  od\n}")
print("\n".join(out))
