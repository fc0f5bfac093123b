//! Ints that step up and down (`C := C + 1`), compared only with literals, read over
//! the classes of `model::ints::literal`: a finite over-approximation of the model, used to
//! prove (never to refute) its properties for every n (docs/every-n.md, "Ints that
//! step, over their classes").
//!
//! The classes are those of `litint`: each literal of the model's comparisons and
//! stores, and each nonempty open interval between two consecutive literals (or
//! beyond the first or last). Guards, `init` and properties compare ints with
//! literals only, so each has the same truth on every integer of a class: the
//! abstraction α sending an integer to its class is exact for them (the comparison
//! `C < 3` becomes the disjunction of the classes below 3). A stored step `X + k`
//! is not: from a class holding many integers it may land in several classes. Each
//! transition with steps is split into one copy per choice of the landing class of
//! each step (`X + k` from class d lands in any class meeting d + k), the copies
//! guarded by the classes that have that many choices. Every concrete step s → s'
//! then has an abstract step α(s) → α(s'), and every initial state an abstract one,
//! so an invariant of the abstract model is, read through α, one of the model:
//! properties proved over the classes hold of the model. A violation over the
//! classes may be no run of the model (a step landing where no integer of the class
//! goes), so the abstract model answers proofs only.
//!
//! This is predicate abstraction (Graf and Saïdi, CAV 1997) with the predicates the
//! model's own comparisons with literals; counter abstraction's "0, 1, many" is the
//! case of one literal.
//!
//! The abstract model is printed and read back (`lang::read_back`): its text is its own,
//! so the independent checker and `nfold certify` (which rebuilds it from the model
//! when a certificate says `abstraction ints`) check the same model.

use super::literal::{self, LitVal};
use crate::model::ir::*;

/// The largest number of copies one transition is split into.
const MAX_COPIES: usize = 64;

/// The ints of an abstract model (set on it): which, and the classes they range over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbsInts {
    pub vars: Vec<String>,
    pub values: Vec<LitVal>,
}

impl AbsInts {
    /// One phrase for reports: the ints and their classes.
    pub fn summary(&self) -> String {
        let vals: Vec<String> = self.values.iter().map(|v| v.name()).collect();
        format!(
            "the ints {} read over the classes {} (steps over-approximated)",
            self.vars
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", "),
            vals.join(", ")
        )
    }
}

/// The constructor naming a class in the abstract model's text: `Int_3`, `Int_m1`
/// (−1), `Int_lt_0`, `Int_gt_5`, `Int_0_to_3` (strictly between), `Int_any`.
pub(super) fn ctor(v: LitVal) -> String {
    let num = |k: i64| {
        if k < 0 {
            format!("m{}", -(k as i128))
        } else {
            k.to_string()
        }
    };
    match v {
        LitVal::Lit(k) => format!("Int_{}", num(k)),
        LitVal::Between(None, Some(b)) => format!("Int_lt_{}", num(b)),
        LitVal::Between(Some(a), None) => format!("Int_gt_{}", num(a)),
        LitVal::Between(Some(a), Some(b)) => format!("Int_{}_to_{}", num(a), num(b)),
        LitVal::Between(None, None) => "Int_any".into(),
    }
}

/// Whether some integer x has lo < x < hi (`None`: unbounded).
fn meets(lo: Option<i64>, hi: Option<i64>) -> bool {
    match (lo, hi) {
        (Some(a), Some(b)) => b - a >= 2,
        _ => true,
    }
}

/// The classes that x + k lands in, for x in class `d`, in order.
pub fn landing(values: &[LitVal], d: usize, k: i64) -> Vec<usize> {
    let shift = |x: Option<i64>| x.map(|x| x + k);
    let (lo, hi) = match values[d] {
        // The open interval (l + k - 1, l + k + 1) holds l + k alone.
        LitVal::Lit(l) => (Some(l + k - 1), Some(l + k + 1)),
        LitVal::Between(a, b) => (shift(a), shift(b)),
    };
    let above = |x: i64| lo.is_none_or(|lo| x > lo);
    let below = |x: i64| hi.is_none_or(|hi| x < hi);
    (0..values.len())
        .filter(|&c| match values[c] {
            LitVal::Lit(m) => above(m) && below(m),
            LitVal::Between(p, q) => {
                let l = match (p, lo) {
                    (Some(p), Some(lo)) => Some(p.max(lo)),
                    (p, lo) => p.or(lo),
                };
                let h = match (q, hi) {
                    (Some(q), Some(hi)) => Some(q.min(hi)),
                    (q, hi) => q.or(hi),
                };
                meets(l, h)
            }
        })
        .collect()
}

/// One step `X + k` in a stored value: the cell read, and per class the classes it
/// lands in.
struct Step {
    cell: Expr,
    lands: Vec<Vec<usize>>,
}

impl Step {
    /// How many landing classes the most spread class has.
    fn choices(&self) -> usize {
        self.lands.iter().map(|l| l.len()).max().unwrap_or(1)
    }
}

/// The steps of a stored value of the abstract model, left to right.
fn steps_of(m: &Model, e: &Expr, values: &[LitVal], out: &mut Vec<Step>) {
    if let Some((v, ix, k)) = literal::step(m, e) {
        out.push(Step {
            cell: Expr::Read(v, ix.to_vec()),
            lands: (0..values.len()).map(|d| landing(values, d, k)).collect(),
        });
    } else if let Expr::Ite(_, a, b, _) = e {
        steps_of(m, a, values, out);
        steps_of(m, b, values, out);
    }
}

/// `e` with its steps replaced, left to right, by the landing class of choice
/// `choice[i]` (the last one for a class with fewer), as a `case` on the cell.
fn resolve(
    m: &Model,
    e: &Expr,
    ty: Ty,
    steps: &[Step],
    choice: &[usize],
    next: &mut usize,
) -> Expr {
    if literal::step(m, e).is_some() {
        let (s, j) = (&steps[*next], choice[*next]);
        *next += 1;
        let pick = |d: usize| {
            let l = &s.lands[d];
            Expr::Const(l[j.min(l.len() - 1)] as i64, ty)
        };
        let last = s.lands.len() - 1;
        return (0..last).rev().fold(pick(last), |rest, d| {
            let here = pick(d);
            if here == rest {
                return rest;
            }
            Expr::Ite(
                Box::new(Expr::Cmp(
                    CmpOp::Eq,
                    Box::new(s.cell.clone()),
                    Box::new(Expr::Const(d as i64, ty)),
                )),
                Box::new(here),
                Box::new(rest),
                ty,
            )
        });
    }
    match e {
        Expr::Ite(c, a, b, t) => {
            let a = resolve(m, a, ty, steps, choice, next);
            let b = resolve(m, b, ty, steps, choice, next);
            Expr::Ite(c.clone(), Box::new(a), Box::new(b), *t)
        }
        _ => e.clone(),
    }
}

/// The copies of transition `t` (of the model over the classes): one per choice of
/// landing class for each of its steps, guarded by the classes that have that choice.
fn split(m: &Model, t: &Transition, ty: Ty, values: &[LitVal]) -> Result<Vec<Transition>, String> {
    let mut steps = Vec::new();
    for u in &t.updates {
        if let UpdValue::Term(e) = &u.value {
            steps_of(m, e, values, &mut steps);
        }
    }
    if steps.is_empty() {
        return Ok(vec![t.clone()]);
    }
    for s in &steps {
        let Expr::Read(_, ix) = &s.cell else {
            continue;
        };
        let mut bound = false;
        for x in ix {
            x.walk(&mut |y| {
                bound |= matches!(y, Expr::Local(id) if *id >= t.params);
                true
            });
        }
        if bound {
            return Err(format!(
                "transition `{}` steps an int cell of every process (`A[j] := ... A[j] + k`); only cells of its parameters and globals are read over classes",
                t.name
            ));
        }
    }
    let copies: usize = steps.iter().map(|s| s.choices()).product();
    if copies > MAX_COPIES {
        return Err(format!(
            "transition `{}` would be split into {copies} copies (at most {MAX_COPIES})",
            t.name
        ));
    }
    let mut out = Vec::new();
    for k in 0..copies {
        // Choice i of the copy: digit i of k in the mixed radix of the choices.
        let mut rest = k;
        let choice: Vec<usize> = steps
            .iter()
            .map(|s| {
                let j = rest % s.choices();
                rest /= s.choices();
                j
            })
            .collect();
        let mut guard = vec![t.guard.clone()];
        for (s, &j) in steps.iter().zip(&choice) {
            if j > 0 {
                guard.push(Expr::Or(
                    (0..values.len())
                        .filter(|&d| s.lands[d].len() > j)
                        .map(|d| {
                            Expr::Cmp(
                                CmpOp::Eq,
                                Box::new(s.cell.clone()),
                                Box::new(Expr::Const(d as i64, ty)),
                            )
                        })
                        .collect(),
                ));
            }
        }
        let mut next = 0;
        let updates = t
            .updates
            .iter()
            .map(|u| Update {
                value: match &u.value {
                    UpdValue::Term(e) => {
                        UpdValue::Term(resolve(m, e, ty, &steps, &choice, &mut next))
                    }
                    v => v.clone(),
                },
                ..u.clone()
            })
            .collect();
        out.push(Transition {
            name: if k == 0 {
                t.name.clone()
            } else {
                format!("{}_abs{k}", t.name)
            },
            guard: Expr::And(guard),
            updates,
            ..t.clone()
        });
    }
    Ok(out)
}

/// The model over the classes of its ints (module comment), when its ints step and
/// are otherwise only compared with literals and copied; why not otherwise. It is to
/// be printed and read back (`lang::read_back`) before use.
pub fn abstracted(m: &Model) -> Result<Model, String> {
    let plan = literal::analyse_with(m, true)
        .map_err(|e| format!("{} at {}", e.what, m.source.file_line(e.span.lo)))?
        .ok_or("the model has no ints")?;
    if !plan.steps {
        return Err("no int steps (`X + k`): its ints are read exactly".into());
    }
    let mut name = "abs_int".to_string();
    while m.enums.iter().any(|e| e.name == name) {
        name.push('_');
    }
    let ctors: Vec<String> = plan.values.iter().map(|&v| ctor(v)).collect();
    if let Some(c) = ctors
        .iter()
        .find(|c| m.enums.iter().any(|e| e.ctors.contains(c)))
    {
        return Err(format!(
            "the class name `{c}` is a constructor of the model"
        ));
    }
    let (mut out, enum_id) = literal::over_values(m, &plan, &name, ctors, true);
    // The steps were left as `X + k`: resolve them (the rewritten model reads the
    // cells with their new type).
    let ty = Ty::Enum(enum_id);
    let mut transitions = Vec::new();
    for t in &out.transitions {
        // `m`'s types tell the int cells of the steps (the same variables).
        transitions.extend(split(m, t, ty, &plan.values)?);
    }
    out.transitions = transitions;
    out.abs_ints = Some(AbsInts {
        vars: plan.vars.iter().map(|&v| m.vars[v].name.clone()).collect(),
        values: plan.values,
    });
    out.warnings.clear();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::load_str;

    /// A lock whose count of hand-ins starts positive and steps up and down, compared
    /// with 0 only (after Cubicle's `jml.cub`).
    const COUNT: &str = "type loc = Idle | Owner | Handout\nvar Busy : bool\nvar C : int\narray A[proc] : loc\n\
        init (z) { A[z] = Idle && Busy = False && 0 < C }\n\
        unsafe (x y) { A[x] = Owner && A[y] = Owner }\n\
        transition take (x) requires { A[x] = Idle && Busy = False && 0 < C } { Busy := True; A[x] := Owner; }\n\
        transition more (x) requires { A[x] = Idle && 0 < C } { C := C + 1; }\n\
        transition less (x) requires { A[x] = Owner && 0 < C } { C := C - 1; A[x] := Handout; }\n\
        transition back (x) requires { A[x] = Handout } { Busy := False; A[x] := Idle; }\n";

    #[test]
    fn a_count_compared_with_zero_is_read_over_three_classes() {
        let m = load_str("t.cub", COUNT).unwrap();
        let a = crate::lang::read_back(&abstracted(&m).unwrap(), "t").unwrap();
        assert!(a.int_window.is_none());
        // `less` steps C down: from (0,+inf) it lands in 0 or stays, two copies;
        // `more` steps it up: from (-inf,0) it lands in 0 or stays, two copies.
        assert_eq!(a.transitions.len(), 6);
        let abs = a.abs_ints.as_ref().unwrap();
        assert_eq!(
            abs.values,
            vec![
                LitVal::Between(None, Some(0)),
                LitVal::Lit(0),
                LitVal::Between(Some(0), None)
            ]
        );
    }

    #[test]
    fn steps_land_in_every_class_they_meet() {
        use LitVal::*;
        // Literals 0 and 3: (-inf,0), 0, (0,3) = {1, 2}, 3, (3,+inf).
        let v = [
            Between(None, Some(0)),
            Lit(0),
            Between(Some(0), Some(3)),
            Lit(3),
            Between(Some(3), None),
        ];
        // 0 + 1 = 1, in (0,3); 3 - 1 = 2, in (0,3).
        assert_eq!(landing(&v, 1, 1), vec![2]);
        assert_eq!(landing(&v, 3, -1), vec![2]);
        // {1, 2} + 1 = {2, 3}; {1, 2} - 1 = {0, 1}; {1, 2} + 5 = {6, 7}.
        assert_eq!(landing(&v, 2, 1), vec![2, 3]);
        assert_eq!(landing(&v, 2, -1), vec![1, 2]);
        assert_eq!(landing(&v, 2, 5), vec![4]);
        // Above 3, minus 1: 3 itself or still above; below 0, plus 2: anything up to 1.
        assert_eq!(landing(&v, 4, -1), vec![3, 4]);
        assert_eq!(landing(&v, 0, 2), vec![0, 1, 2]);
    }
}
