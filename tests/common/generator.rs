//! The generator of small well-typed families for differential testing (used by
//! tests/generated.rs and tests/live_sat.rs): enumerations, booleans, ranges,
//! process-valued globals, `[proc]` and `[proc, proc]` arrays, quantified guards, `case`
//! updates, `any`, `X := .`, `unsafe` and `ltl` properties; fully symmetric or not;
//! with or without the extra process id (a `proc` global `Home` that `init` puts apart
//! from every process, `model::extra`).

use super::Rng;
use itertools::Itertools;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GTy {
    Bool,
    Enum(usize),
    Range,
    Proc,
}

#[derive(Clone, Debug)]
pub struct GVar {
    pub name: String,
    /// 0: global, 1: [proc], 2: [proc, proc]
    pub dims: usize,
    pub ty: GTy,
}

#[derive(Clone, Debug)]
pub struct GTrans {
    pub params: Vec<String>,
    pub guard: Vec<String>,
    pub updates: Vec<String>,
}

/// A generated family, kept in pieces so that it can be shrunk.
#[derive(Clone, Debug)]
pub struct GModel {
    pub enums: Vec<Vec<String>>,
    pub range_hi: String,
    pub vars: Vec<GVar>,
    pub init: Vec<String>,
    pub unsafes: Vec<(Vec<String>, Vec<String>)>,
    pub trans: Vec<GTrans>,
    /// `ltl` bodies over the parameter `i`.
    pub ltls: Vec<String>,
}

impl GModel {
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (k, e) in self.enums.iter().enumerate() {
            s.push_str(&format!("type e{k} = {}\n", e.join(" | ")));
        }
        s.push_str(&format!("type lvl = 0 .. {}\n", self.range_hi));
        for v in &self.vars {
            let ty = match v.ty {
                GTy::Bool => "bool".to_string(),
                GTy::Enum(k) => format!("e{k}"),
                GTy::Range => "lvl".to_string(),
                GTy::Proc => "proc".to_string(),
            };
            match v.dims {
                0 => s.push_str(&format!("var {} : {ty}\n", v.name)),
                1 => s.push_str(&format!("array {}[proc] : {ty}\n", v.name)),
                _ => s.push_str(&format!("array {}[proc, proc] : {ty}\n", v.name)),
            }
        }
        let init = if self.init.is_empty() {
            "true".to_string()
        } else {
            self.init.join(" && ")
        };
        s.push_str(&format!("init (z w) {{ {init} }}\n"));
        for (k, (ps, atoms)) in self.unsafes.iter().enumerate() {
            let body = if atoms.is_empty() {
                "true".to_string()
            } else {
                atoms.join(" && ")
            };
            s.push_str(&format!("unsafe p{k} ({}) {{ {body} }}\n", ps.join(" ")));
        }
        for (k, body) in self.ltls.iter().enumerate() {
            s.push_str(&format!("ltl l{k} (i) {{ {body} }}\n"));
        }
        for (k, t) in self.trans.iter().enumerate() {
            let guard = if t.guard.is_empty() {
                "true".to_string()
            } else {
                t.guard.join(" && ")
            };
            s.push_str(&format!(
                "transition t{k} ({})\nrequires {{ {guard} }}\n{{ {} }}\n",
                t.params.join(" "),
                t.updates.iter().map(|u| format!("{u};")).join(" ")
            ));
        }
        s
    }
}

pub struct Gen {
    pub rng: Rng,
    pub asym: bool,
    /// Add `var Home : proc` with `Home <> z` in `init` (the extra process id).
    pub extra: bool,
}

impl Gen {
    pub fn ctor(&mut self, m: &GModel, e: usize) -> String {
        self.rng.pick(&m.enums[e]).clone()
    }

    /// A constant of a type (process constants only in asymmetric models).
    pub fn constant(&mut self, m: &GModel, ty: GTy) -> Option<String> {
        Some(match ty {
            GTy::Bool => (if self.rng.chance(50) { "True" } else { "False" }).to_string(),
            GTy::Enum(e) => self.ctor(m, e),
            // Within a constant range: a literal outside it is a load error (stores
            // leave the range by arithmetic, `+ 1`, instead).
            GTy::Range => match m.range_hi.parse::<usize>() {
                Ok(hi) => self.rng.below(hi + 1).to_string(),
                Err(_) => self.rng.below(3).to_string(),
            },
            GTy::Proc if self.asym => "#1".to_string(),
            GTy::Proc => return None,
        })
    }

    /// A cell of variable v, indexed by processes from `procs`.
    pub fn cell(&mut self, v: &GVar, procs: &[String]) -> Option<String> {
        match v.dims {
            0 => Some(v.name.clone()),
            1 => {
                let p = self.rng.pick(procs).clone();
                if self.asym && self.rng.chance(10) {
                    // An index that may fall outside the processes: a range error.
                    return Some(format!("{}[{p} + 1]", v.name));
                }
                Some(format!("{}[{p}]", v.name))
            }
            _ => {
                let a = self.rng.pick(procs).clone();
                let b = self.rng.pick(procs).clone();
                Some(format!("{}[{a}, {b}]", v.name))
            }
        }
    }

    /// A term of a type over the process names in scope.
    pub fn term(&mut self, m: &GModel, ty: GTy, procs: &[String]) -> String {
        let vars: Vec<GVar> = m.vars.iter().filter(|v| v.ty == ty).cloned().collect();
        if ty == GTy::Proc && !procs.is_empty() && self.rng.chance(50) {
            return self.rng.pick(procs).clone();
        }
        if !vars.is_empty() && !procs.is_empty() && self.rng.chance(50) {
            let v = self.rng.pick(&vars).clone();
            if let Some(c) = self.cell(&v, procs) {
                if ty == GTy::Range && self.rng.chance(25) {
                    return format!("{c} + 1");
                }
                return c;
            }
        }
        match self.constant(m, ty) {
            Some(c) => c,
            None => self.rng.pick(procs).clone(),
        }
    }

    /// An atomic formula (possibly quantified) over the process names in scope.
    pub fn atom(&mut self, m: &GModel, procs: &[String], depth: usize) -> String {
        let roll = self.rng.below(10);
        if roll < 2 && depth == 0 {
            let q = *self
                .rng
                .pick(&["forall_other", "exists_other", "forall", "exists"]);
            let j = format!("q{}", self.rng.below(1000));
            let mut inner = procs.to_vec();
            inner.push(j.clone());
            let body = self.atom(m, &inner, 1);
            return format!("({q} {j}. {body})");
        }
        if roll == 2 && self.asym && procs.len() >= 2 {
            let a = self.rng.pick(procs).clone();
            let b = self.rng.pick(procs).clone();
            return format!("{a} < {b}");
        }
        if roll == 3 && procs.len() >= 2 {
            let a = self.rng.pick(procs).clone();
            let b = self.rng.pick(procs).clone();
            return format!("{a} <> {b}");
        }
        let v = self.rng.pick(&m.vars).clone();
        let Some(lhs) = self
            .cell(&v, if procs.is_empty() { &[] } else { procs })
            .filter(|_| !procs.is_empty() || v.dims == 0)
        else {
            return "true".into();
        };
        let rhs = self.term(m, v.ty, procs);
        let op = match v.ty {
            GTy::Range if self.rng.chance(40) => *self.rng.pick(&["<", "<=", ">"]),
            _ => *self.rng.pick(&["=", "<>"]),
        };
        if v.ty == GTy::Bool && self.rng.chance(30) {
            return if self.rng.chance(50) {
                lhs
            } else {
                format!("not {lhs}")
            };
        }
        format!("{lhs} {op} {rhs}")
    }

    pub fn update(&mut self, m: &GModel, v: &GVar, params: &[String]) -> Option<String> {
        let roll = self.rng.below(10);
        match v.dims {
            0 => {
                if roll < 2 && v.ty != GTy::Proc {
                    return Some(format!("{} := .", v.name));
                }
                if roll < 4 && v.ty == GTy::Proc {
                    let cond = self.atom(m, &["a".to_string()], 1);
                    return Some(format!("{} := any a. {cond}", v.name));
                }
                if roll < 5 {
                    let c = self.atom(m, params, 1);
                    let t1 = self.term(m, v.ty, params);
                    let t2 = self.term(m, v.ty, params);
                    return Some(format!("{} := case | {c} : {t1} | _ : {t2}", v.name));
                }
                let t = self.term(m, v.ty, params);
                Some(format!("{} := {t}", v.name))
            }
            1 => {
                if roll < 3 {
                    let p = self.rng.pick(params).clone();
                    let t = self.term(m, v.ty, params);
                    let mut scope = params.to_vec();
                    scope.push("x".into());
                    let c = self.atom(m, &scope, 1);
                    let t2 = self.term(m, v.ty, &scope);
                    return Some(format!(
                        "{}[x] := case | x = {p} : {t} | {c} : {t2} | _ : {}[x]",
                        v.name, v.name
                    ));
                }
                let p = self.rng.pick(params).clone();
                let t = self.term(m, v.ty, params);
                Some(format!("{}[{p}] := {t}", v.name))
            }
            _ => {
                if roll < 3 {
                    let p = self.rng.pick(params).clone();
                    let t = self.term(m, v.ty, params);
                    return Some(format!(
                        "{}[x, y] := case | y = {p} : {t} | _ : {}[x, y]",
                        v.name, v.name
                    ));
                }
                let a = self.rng.pick(params).clone();
                let b = self.rng.pick(params).clone();
                let t = self.term(m, v.ty, params);
                Some(format!("{}[{a}, {b}] := {t}", v.name))
            }
        }
    }

    pub fn model(&mut self) -> GModel {
        let rng = &mut self.rng;
        let nenums = 1 + rng.below(2);
        let enums: Vec<Vec<String>> = (0..nenums)
            .map(|e| (0..2 + rng.below(2)).map(|c| format!("C{e}x{c}")).collect())
            .collect();
        let range_hi = if rng.chance(40) {
            "N".to_string()
        } else {
            (1 + rng.below(2)).to_string()
        };
        let mut m = GModel {
            enums,
            range_hi,
            vars: Vec::new(),
            init: Vec::new(),
            unsafes: Vec::new(),
            trans: Vec::new(),
            ltls: Vec::new(),
        };
        let nvars = 2 + self.rng.below(3);
        for k in 0..nvars {
            let ty = match self.rng.below(10) {
                0..=3 => GTy::Enum(self.rng.below(nenums)),
                4..=5 => GTy::Bool,
                6..=7 => GTy::Range,
                _ => GTy::Proc,
            };
            let dims = match self.rng.below(10) {
                0..=2 => 0,
                3..=8 => 1,
                _ => 2,
            };
            m.vars.push(GVar {
                name: format!("V{k}"),
                dims,
                ty,
            });
        }
        if self.extra {
            m.vars.push(GVar {
                name: "Home".into(),
                dims: 0,
                ty: GTy::Proc,
            });
            m.init.push("Home <> z".into());
        }
        // init: most cells start at a constant; some stay free.
        for v in m.vars.clone() {
            if v.name == "Home" || self.rng.chance(25) {
                continue;
            }
            let cell = match v.dims {
                0 => v.name.clone(),
                1 => format!("{}[z]", v.name),
                _ => format!("{}[z, w]", v.name),
            };
            match self.constant(&m, v.ty) {
                Some(c) => m.init.push(format!("{cell} = {c}")),
                None => m.init.push(format!("{cell} = z")),
            }
        }
        for _ in 0..1 + self.rng.below(3) {
            let ps: Vec<String> = (0..1 + self.rng.below(2))
                .map(|k| format!("u{k}"))
                .collect();
            let atoms: Vec<String> = (0..1 + self.rng.below(2))
                .map(|_| self.atom(&m, &ps, 1))
                .collect();
            m.unsafes.push((ps, atoms));
        }
        for _ in 0..2 + self.rng.below(4) {
            let params: Vec<String> = (0..1 + self.rng.below(2))
                .map(|k| ["i", "j"][k].to_string())
                .collect();
            let guard: Vec<String> = (0..self.rng.below(3) + 1)
                .map(|_| self.atom(&m, &params, 0))
                .collect();
            let mut updates = Vec::new();
            let vars = m.vars.clone();
            for v in &vars {
                if self.rng.chance(45)
                    && let Some(u) = self.update(&m, v, &params)
                {
                    updates.push(u);
                }
            }
            m.trans.push(GTrans {
                params,
                guard,
                updates,
            });
        }
        for _ in 0..self.rng.below(3) {
            let f = self.temporal(&m, 2);
            m.ltls.push(f);
        }
        m
    }

    /// An LTL formula over the parameter `i` and the globals: the usual response and
    /// recurrence shapes, or a random one.
    pub fn temporal(&mut self, m: &GModel, depth: usize) -> String {
        let i = ["i".to_string()];
        let roll = self.rng.below(12);
        if depth == 0 || roll < 2 {
            return self.atom(m, &i, 0);
        }
        match roll {
            2 => {
                let (a, b) = (self.atom(m, &i, 0), self.atom(m, &i, 0));
                format!("G ({a} => F {b})")
            }
            3 => format!("G F {}", self.atom(m, &i, 0)),
            4 => format!("F G {}", self.atom(m, &i, 0)),
            5..=7 => {
                let op = *self.rng.pick(&["G", "F", "X", "not"]);
                format!("{op} ({})", self.temporal(m, depth - 1))
            }
            _ => {
                let op = *self.rng.pick(&["U", "R", "W", "&&", "||", "=>"]);
                let a = self.temporal(m, depth - 1);
                let b = self.temporal(m, depth - 1);
                format!("({a}) {op} ({b})")
            }
        }
    }
}
