#!/usr/bin/env python3
# File circles inside modules (issue 45; the rule of ../shared/reviews/architecture-4.md):
# every crate::/super::/self:: path in non-test code, `use` groups expanded, resolved to
# the longest module prefix that is a file; mod.rs <-> own-child edges dropped;
# strongly connected sets of two or more files printed. Run from the repository root.
import os, re, sys
root='src'
mods={}
for d,_,fs in os.walk(root):
    for f in fs:
        if not f.endswith('.rs'): continue
        p=os.path.join(d,f)[len(root)+1:-3].split('/')
        if p[-1]=='mod': p=p[:-1]
        if p in (['lib'],['main']): p=[]
        mods[tuple(p)]=os.path.join(d,f)
def resolve(path):
    path=tuple(path)
    for k in range(len(path),0,-1):
        if path[:k] in mods: return path[:k]
    return None
def expand(s):
    # expand a::{b, c::{d}} into lists
    s=s.strip()
    m=re.match(r'^(.*?)\{(.*)\}$',s,re.S)
    if not m: return [s]
    pre=m.group(1); inner=m.group(2); parts=[];depth=0;cur=''
    for ch in inner:
        if ch=='{': depth+=1
        if ch=='}': depth-=1
        if ch==',' and depth==0: parts.append(cur);cur=''
        else: cur+=ch
    parts.append(cur)
    out=[]
    for p in parts:
        p=p.strip()
        if not p: continue
        for e in expand(p): out.append(pre+e)
    return out
edges={}
for mod,f in mods.items():
    txt=open(f).read()
    i=txt.find('#[cfg(test)]')
    if i>=0: txt=txt[:i]
    isdir=f.endswith('mod.rs') or f.endswith('lib.rs')
    here=list(mod)
    targets=set()
    for m in re.finditer(r'\buse\s+([^;]+);',txt):
        for e in expand(m.group(1)):
            targets.add(e.split(' as ')[0].strip())
    for m in re.finditer(r'(?<![\w:])((?:crate|super)(?:::\w+)+)',txt):
        targets.add(m.group(1))
    for t in targets:
        segs=[x for x in t.split('::') if x]
        if not segs: continue
        if segs[0]=='crate': base=[];segs=segs[1:]
        elif segs[0]=='super':
            base=list(here)
            while segs and segs[0]=='super':
                base=base[:-1] if base else base; segs=segs[1:]
            # note: super from a file module a/b.rs refers to a
        elif segs[0]=='self': base=list(mod) if isdir else list(mod); segs=segs[1:]
        else: continue
        r=resolve(base+segs)
        if r is None or r==mod: continue
        # drop mod.rs <-> own child
        if (len(r)==len(mod)+1 and r[:len(mod)]==mod) or (len(mod)==len(r)+1 and mod[:len(r)]==r): continue
        edges.setdefault(mod,set()).add(r)
# tarjan
idx={};low={};st=[];on=set();out=[];c=[0]
sys.setrecursionlimit(10000)
def sc(v):
    idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
    for w in edges.get(v,()):
        if w not in idx: sc(w);low[v]=min(low[v],low[w])
        elif w in on: low[v]=min(low[v],idx[w])
    if low[v]==idx[v]:
        comp=[]
        while True:
            w=st.pop();on.discard(w);comp.append(w)
            if w==v: break
        if len(comp)>1: out.append(comp)
for v in mods:
    if v not in idx: sc(v)
for comp in out: print(len(comp), sorted('/'.join(x) for x in comp))
print(len(out),'circles')
