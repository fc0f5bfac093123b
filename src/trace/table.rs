//! A run as a table of processes × steps, like a message-sequence chart: which process
//! fired each step and which cells, grouped by owning process, it changed.

use super::{Trace, step_label, violation_text};
use crate::model::eval::Step;
use crate::model::instance::{Instance, State};
use crate::model::ir::{Model, Ty};

/// The process whose column a cell is drawn in, with the index position that names it:
/// the first `proc` index of an array cell; `None` for globals and arrays not indexed
/// by processes.
fn cell_owner(inst: &Instance, slot: usize) -> Option<(i64, usize)> {
    let s = &inst.slots[slot];
    let dims = &inst.model.vars[s.var].dims;
    dims.iter()
        .position(|t| *t == Ty::Proc)
        .map(|k| (s.index[k], k))
}

/// How a cell is named in its process's column: without the owning index (`A` for
/// `A[2]` in the column of process 2, `G[_,3]` for `G[2,3]`).
fn owned_cell_name(inst: &Instance, slot: usize, pos: usize) -> String {
    let s = &inst.slots[slot];
    let v = &inst.model.vars[s.var];
    if s.index.len() == 1 {
        return v.name.clone();
    }
    let ix: Vec<String> = s
        .index
        .iter()
        .zip(&v.dims)
        .enumerate()
        .map(|(k, (&i, &t))| {
            if k == pos {
                "_".to_string()
            } else {
                inst.value_name(t, i)
            }
        })
        .collect();
    format!("{}[{}]", v.name, ix.join(","))
}

/// A run as a table of processes × steps, like a message-sequence chart: one column per
/// process (`p1 .. pn`) and one for the cells no process owns (`globals`), one row per
/// step. Row 0 is the initial state, each process's cells in its column; then each step
/// writes its transition in the column of the executing process (its first parameter;
/// the globals column for a transition without parameters) followed by the cells that
/// process owns which changed, and every other changed cell in its owner's column. A
/// cell is owned by the process of its first `proc` index and written without that
/// index. `marks` are lines printed before the row of step k (k ≥ 1), e.g. where a
/// lasso's cycle starts.
pub fn render_run_table(
    model: &Model,
    size: usize,
    steps: &[Step],
    states: &[State],
    marks: &[(usize, String)],
) -> String {
    let inst = Instance::new(model, size);
    let n = size;
    let globals: Vec<usize> = (0..inst.slots.len())
        .filter(|&s| cell_owner(&inst, s).is_none())
        .collect();
    let has_globals = !globals.is_empty() || steps.iter().any(|s| s.params.is_empty());
    let cols = n + usize::from(has_globals);
    let mut rows: Vec<Vec<Vec<String>>> = Vec::with_capacity(steps.len() + 1);
    // Row 0: the initial state.
    let mut row0 = vec![Vec::new(); cols];
    for (s, &v) in states[0].iter().enumerate() {
        if let Some((p, pos)) = cell_owner(&inst, s) {
            row0[p as usize - 1].push(format!(
                "{}={}",
                owned_cell_name(&inst, s, pos),
                inst.slot_value_name(s, v)
            ));
        }
    }
    if has_globals {
        row0[n] = global_summary(&inst, &globals, &states[0]);
    }
    rows.push(row0);
    for (k, step) in steps.iter().enumerate() {
        let mut row = vec![Vec::new(); cols];
        let col = match step.params.first() {
            Some(&p) if p >= 1 && p as usize <= n => p as usize - 1,
            _ => n.min(cols - 1),
        };
        row[col].push(step_label(model, step));
        let (a, b) = (&states[k], &states[k + 1]);
        for s in (0..a.len()).filter(|&s| a[s] != b[s]) {
            let v = inst.slot_value_name(s, b[s]);
            match cell_owner(&inst, s) {
                Some((p, pos)) => {
                    row[p as usize - 1].push(format!("{}={v}", owned_cell_name(&inst, s, pos)))
                }
                None => row[n].push(format!("{}={v}", inst.cell_name(s))),
            }
        }
        rows.push(row);
    }
    let mut header: Vec<String> = (1..=n).map(|p| format!("p{p}")).collect();
    if has_globals {
        header.push("globals".to_string());
    }
    let texts: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| c.join(" ")).collect())
        .collect();
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            texts
                .iter()
                .map(|r| r[c].chars().count())
                .chain(std::iter::once(header[c].chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |first: String, cells: &[String]| -> String {
        let mut l = format!("    {first:>4}");
        for (c, text) in cells.iter().enumerate() {
            l.push_str("  ");
            l.push_str(text);
            l.extend(std::iter::repeat_n(
                ' ',
                widths[c].saturating_sub(text.chars().count()),
            ));
        }
        let mut l = l.trim_end().to_string();
        l.push('\n');
        l
    };
    let mut out = line("step".to_string(), &header);
    for (k, r) in texts.iter().enumerate() {
        for (_, m) in marks.iter().filter(|(at, _)| *at == k && k > 0) {
            out.push_str(&format!("    {m}\n"));
        }
        out.push_str(&line(k.to_string(), r));
    }
    out
}

/// The global cells of a state in short form: `X=v`, an array whose cells are all
/// equal as `A[*]=v`, other arrays cell by cell.
fn global_summary(inst: &Instance, globals: &[usize], st: &[i64]) -> Vec<String> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < globals.len() {
        let s = globals[k];
        let var = inst.slots[s].var;
        let mut e = k;
        while e < globals.len() && inst.slots[globals[e]].var == var {
            e += 1;
        }
        let group = &globals[k..e];
        if !inst.model.vars[var].dims.is_empty()
            && group.len() == inst.vars[var].cells
            && group.iter().all(|&g| st[g] == st[s])
        {
            out.push(format!(
                "{}[*]={}",
                inst.model.vars[var].name,
                inst.slot_value_name(s, st[s])
            ));
        } else {
            out.extend(
                group
                    .iter()
                    .map(|&g| format!("{}={}", inst.cell_name(g), inst.slot_value_name(g, st[g]))),
            );
        }
        k = e;
    }
    out
}

/// The trace as a table of processes × steps (`render_run_table`), followed by the
/// violation.
pub fn render_table(model: &Model, trace: &Trace, states: &[State]) -> String {
    let mut out = render_run_table(model, trace.size, &trace.steps, states, &[]);
    out.push_str(&format!(
        "    => {}\n",
        violation_text(model, &trace.violation)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Violation, replay_steps};

    const MODEL: &str = "\
type state = Idle | Want | Crit
var Sem : bool
array A[proc] : state
array G[proc, proc] : bool
init (z w) { A[z] = Idle && Sem = False && G[z,w] = False }
unsafe mutex (z1 z2) { A[z1] = Crit && A[z2] = Crit }
transition req (i) requires { A[i] = Idle } { A[i] := Want; }
transition grant (i j) requires { A[j] = Want } { G[j,i] := True; A[j] := Crit; }
transition lock () requires { Sem = False } { Sem := True; }
";

    fn step(model: &Model, name: &str, params: &[i64]) -> Step {
        Step {
            trans: model.transition_by_name(name).unwrap(),
            params: params.to_vec(),
            choices: Vec::new(),
        }
    }

    #[test]
    fn table_puts_each_step_in_its_process_column() {
        let model = crate::lang::load_str("t.cub", MODEL).unwrap();
        let inst = Instance::new(&model, 2);
        // Slots: Sem, A[1], A[2], G[1,1], G[1,2], G[2,1], G[2,2]; all Idle / False.
        let init = vec![0; 7];
        let steps = vec![
            step(&model, "req", &[1]),
            step(&model, "grant", &[2, 1]),
            step(&model, "lock", &[]),
            step(&model, "req", &[2]),
            step(&model, "grant", &[1, 2]),
        ];
        let states = replay_steps(&inst, &init, &steps).unwrap();
        let t = Trace {
            size: 2,
            init,
            steps,
            violation: Violation::Unsafe {
                prop: 0,
                tuple: vec![1, 2],
            },
        };
        assert_eq!(t.replay(&model).unwrap(), states);
        // Written by hand: p2's grant(2,1) changes p1's cells, so they appear in p1's
        // column; lock() has no parameter and goes to the globals column.
        let expected =
            "    step  p1                                p2                                globals
       0  A=Idle G[_,1]=False G[_,2]=False  A=Idle G[_,1]=False G[_,2]=False  Sem=False
       1  req(1) A=Want
       2  A=Crit G[_,2]=True                grant(2,1)
       3                                                                      lock() Sem=True
       4                                    req(2) A=Want
       5  grant(1,2)                        A=Crit G[_,1]=True
    => bad state: `mutex` with z1=1, z2=2
";
        assert_eq!(render_table(&model, &t, &states), expected);
    }

    #[test]
    fn table_marks_where_a_lasso_cycle_starts() {
        let model = crate::lang::load_str("t.cub", MODEL).unwrap();
        let inst = Instance::new(&model, 1);
        let steps = vec![step(&model, "req", &[1])];
        let states = replay_steps(&inst, &[0, 0, 0], &steps).unwrap();
        let marks = [(1, "---- here".to_string())];
        let expected = "    step  p1                   globals
       0  A=Idle G[_,1]=False  Sem=False
    ---- here
       1  req(1) A=Want
";
        assert_eq!(
            render_run_table(&model, 1, &steps, &states, &marks),
            expected
        );
    }
}
