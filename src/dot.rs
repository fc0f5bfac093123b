//! The reachable state graph of an instance in Graphviz DOT (`nfold dot`), built on the
//! reference interpreter: one node per reachable state (or, with symmetry, per orbit,
//! drawn as its canonical representative), one edge per transition instance and choice
//! of nondeterministic updates from that state, labelled `name(params)`.

use crate::model::canon::Symmetry;
use crate::model::eval::{self, Step};
use crate::model::init::for_each_initial;
use crate::model::instance::{Instance, State};
use crate::model::ir::Model;
use crate::trace::{choices_text, step_label};
use std::collections::{BTreeMap, HashMap, HashSet};

/// A reachable state graph.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// The states (canonical representatives under symmetry), in breadth-first order.
    pub states: Vec<State>,
    /// Which states are initial (under symmetry: hold an initial state's orbit).
    pub initial: Vec<bool>,
    /// (from, to, transition instance), each triple once, in order of discovery.
    pub edges: Vec<(usize, usize, Step)>,
    /// The `unsafe` properties a state violates (indices into `model.unsafes`).
    pub bad: Vec<Vec<usize>>,
    /// A range error met in a state (a transition instance or property), as text.
    pub range_error: Vec<Option<String>>,
    /// No transition instance is enabled (and none meets a range error).
    pub deadlock: Vec<bool>,
    /// Whether states were identified up to symmetry.
    pub quotient: bool,
}

/// Why no graph was built.
#[derive(Clone, Debug)]
pub enum GraphError {
    /// More reachable states (or orbits) than the limit.
    TooMany(usize),
    /// Evaluating `init` met a range error.
    Init(String),
}

/// The node of a state: its canonical representative under symmetry.
struct Nodes<'a> {
    sym: Option<&'a Symmetry>,
    ids: HashMap<State, usize>,
}

impl Nodes<'_> {
    fn key(&self, st: &[i64]) -> State {
        match self.sym {
            Some(s) => s.canonical_state(st),
            None => st.to_vec(),
        }
    }
}

/// Explore the reachable states of `inst` breadth-first (identified up to `sym` when
/// given) and record every edge; fails when there are more than `max_states` of them.
pub fn build(
    inst: &Instance,
    sym: Option<&Symmetry>,
    max_states: usize,
) -> Result<Graph, GraphError> {
    let model = inst.model;
    let mut g = Graph {
        quotient: sym.is_some(),
        ..Graph::default()
    };
    let mut nodes = Nodes {
        sym,
        ids: HashMap::new(),
    };
    let mut inits = Vec::new();
    for_each_initial(inst, &mut |st| {
        inits.push(st.to_vec());
        inits.len() <= max_states
    })
    .map_err(|e| GraphError::Init(e.error.message))?;
    // States get their ids in the order found, so the ids are the breadth-first queue.
    let add = |g: &mut Graph, nodes: &mut Nodes, st: &[i64]| -> Result<usize, GraphError> {
        let key = nodes.key(st);
        if let Some(&id) = nodes.ids.get(&key) {
            return Ok(id);
        }
        if g.states.len() >= max_states {
            return Err(GraphError::TooMany(max_states));
        }
        let id = g.states.len();
        nodes.ids.insert(key.clone(), id);
        g.states.push(key);
        g.initial.push(false);
        Ok(id)
    };
    for st in &inits {
        let id = add(&mut g, &mut nodes, st)?;
        g.initial[id] = true;
    }
    let mut seen_edges: HashSet<(usize, usize, Step)> = HashSet::new();
    let mut id = 0;
    while id < g.states.len() {
        let st = g.states[id].clone();
        let mut bad = Vec::new();
        let mut range = None;
        for (p, u) in model.unsafes.iter().enumerate() {
            match eval::violation(inst, &st, u) {
                Ok(Some(_)) => bad.push(p),
                Ok(None) => {}
                Err(e) => {
                    range.get_or_insert_with(|| format!("evaluating `{}`: {e}", u.name));
                }
            }
        }
        let (succ, errs) = eval::successors(inst, &st);
        if let Some((s, e)) = errs.first() {
            range.get_or_insert_with(|| format!("{}: {e}", step_label(model, s)));
        }
        g.bad.push(bad);
        g.deadlock.push(succ.is_empty() && errs.is_empty());
        g.range_error.push(range);
        for (step, next) in succ {
            let to = add(&mut g, &mut nodes, &next)?;
            let key = (id, to, step);
            if seen_edges.insert(key.clone()) {
                g.edges.push(key);
            }
        }
        id += 1;
    }
    Ok(g)
}

/// A state in compact form, variables in declaration order: `X=v` for globals and
/// `A=[v1,v2]` for arrays (nested lists for arrays of several dimensions).
pub fn compact_state(inst: &Instance, st: &[i64]) -> String {
    let mut parts = Vec::new();
    for (vid, l) in inst.vars.iter().enumerate() {
        let v = &inst.model.vars[vid];
        if v.dims.is_empty() {
            parts.push(format!(
                "{}={}",
                v.name,
                inst.slot_value_name(l.base, st[l.base])
            ));
        } else {
            let mut text = String::new();
            nested(inst, st, &l.dims, &l.strides, 0, l.base, &mut text);
            parts.push(format!("{}={text}", v.name));
        }
    }
    parts.join(" ")
}

/// The cells of an array from `at` on, dimension `k` and the ones after it, as nested
/// lists.
fn nested(
    inst: &Instance,
    st: &[i64],
    dims: &[(i64, usize)],
    strides: &[usize],
    k: usize,
    at: usize,
    out: &mut String,
) {
    if k == dims.len() {
        out.push_str(&inst.slot_value_name(at, st[at]));
        return;
    }
    out.push('[');
    for i in 0..dims[k].1 {
        if i > 0 {
            out.push(',');
        }
        nested(inst, st, dims, strides, k + 1, at + i * strides[k], out);
    }
    out.push(']');
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A path to draw over the graph: the states it passes through (real states, mapped to
/// their nodes) and the steps between them.
pub struct Highlight<'a> {
    pub name: String,
    pub states: &'a [State],
    pub steps: &'a [Step],
}

/// The graph as a DOT document. Initial states have a double outline, states violating
/// an `unsafe` property are filled red, states where a range error is met have an orange
/// outline, deadlocks are octagons, and the highlighted path is drawn in blue with its
/// step numbers on the edges.
pub fn to_dot(
    inst: &Instance,
    g: &Graph,
    sym: Option<&Symmetry>,
    highlight: Option<&Highlight>,
) -> Result<String, String> {
    let model: &Model = inst.model;
    let (hl_nodes, hl_edges) = match highlight {
        Some(h) => highlighted(g, sym, h)?,
        None => (vec![false; g.states.len()], BTreeMap::new()),
    };
    let mut out = String::new();
    let bad_count = g.bad.iter().filter(|b| !b.is_empty()).count();
    out.push_str(&format!(
        "// nfold: the reachable state graph of {} at size {}{}: {} {}, {} edges, {} initial, {} violating an `unsafe` property\n",
        model.source.name,
        inst.n,
        if g.quotient {
            " up to symmetry (one node per orbit, drawn as its canonical representative)"
        } else {
            ""
        },
        g.states.len(),
        if g.quotient { "orbits" } else { "states" },
        g.edges.len(),
        g.initial.iter().filter(|&&i| i).count(),
        bad_count
    ));
    out.push_str(
        "// double outline: initial state; filled red: violates an `unsafe` property; orange outline: a range error is met there; octagon: deadlock\n",
    );
    if let Some(h) = highlight {
        out.push_str(&format!(
            "// blue: the path of {} ({} steps; edge labels give its step numbers)\n",
            h.name,
            h.steps.len()
        ));
    }
    out.push_str(&format!(
        "digraph {} {{\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n",
        quote(&format!("{} n={}", model.source.name, inst.n))
    ));
    for (id, st) in g.states.iter().enumerate() {
        let mut attrs = vec![format!("label={}", quote(&compact_state(inst, st)))];
        if g.initial[id] {
            attrs.push("peripheries=2".into());
        }
        if g.deadlock[id] {
            attrs.push("shape=octagon".into());
        }
        if !g.bad[id].is_empty() {
            let names: Vec<&str> = g.bad[id]
                .iter()
                .map(|&p| model.unsafes[p].name.as_str())
                .collect();
            attrs.push("style=filled, fillcolor=red".into());
            attrs.push(format!(
                "tooltip={}",
                quote(&format!("violates {}", names.join(", ")))
            ));
        }
        if let Some(r) = &g.range_error[id] {
            attrs.push("color=orange, penwidth=2".into());
            attrs.push(format!("tooltip={}", quote(&format!("range error: {r}"))));
        }
        if hl_nodes[id] {
            attrs.push("color=blue, penwidth=3".into());
        }
        out.push_str(&format!("  s{id} [{}];\n", attrs.join(", ")));
    }
    for (e, (a, b, step)) in g.edges.iter().enumerate() {
        let mut label = step_label(model, step);
        if !step.choices.is_empty() {
            label.push_str(&format!(
                " [{}]",
                choices_text(inst, step.trans, &step.choices)
            ));
        }
        let mut attrs = Vec::new();
        if let Some(ks) = hl_edges.get(&e) {
            let ks: Vec<String> = ks.iter().map(|k| format!("#{k}")).collect();
            label.push_str(&format!("\n{}", ks.join(" ")));
            attrs.push("color=blue, fontcolor=blue, penwidth=3".to_string());
        }
        attrs.insert(0, format!("label={}", quote(&label)));
        out.push_str(&format!("  s{a} -> s{b} [{}];\n", attrs.join(", ")));
    }
    out.push_str("}\n");
    Ok(out)
}

/// The nodes on the highlighted path, and per edge the path's step numbers on it.
type Highlighted = (Vec<bool>, BTreeMap<usize, Vec<usize>>);

/// Where `h` runs in the graph: its nodes, and per edge its step numbers (an error when
/// a state or step of the path is not in the graph).
fn highlighted(g: &Graph, sym: Option<&Symmetry>, h: &Highlight) -> Result<Highlighted, String> {
    let mut hl_nodes = vec![false; g.states.len()];
    let mut hl_edges: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let ids: HashMap<&State, usize> = g.states.iter().enumerate().map(|(k, s)| (s, k)).collect();
    let node_of = |st: &State| -> Option<usize> {
        let key = match sym {
            Some(s) => s.canonical_state(st),
            None => st.clone(),
        };
        ids.get(&key).copied()
    };
    let mut path = Vec::with_capacity(h.states.len());
    for (k, st) in h.states.iter().enumerate() {
        match node_of(st) {
            Some(id) => {
                hl_nodes[id] = true;
                path.push(id);
            }
            None => {
                return Err(format!(
                    "state {k} of {} is not among the graph's states",
                    h.name
                ));
            }
        }
    }
    for (k, step) in h.steps.iter().enumerate() {
        let (a, b) = (path[k], path[k + 1]);
        // The edge of this very instance; under symmetry the representative's edge
        // may carry a permuted instance, so then every edge between the two nodes.
        let exact: Vec<usize> = (0..g.edges.len())
            .filter(|&e| g.edges[e].0 == a && g.edges[e].1 == b && g.edges[e].2 == *step)
            .collect();
        let chosen = if exact.is_empty() {
            (0..g.edges.len())
                .filter(|&e| g.edges[e].0 == a && g.edges[e].1 == b)
                .collect()
        } else {
            exact
        };
        if chosen.is_empty() {
            return Err(format!(
                "step {} of {} is not an edge of the graph",
                k + 1,
                h.name
            ));
        }
        for e in chosen {
            hl_edges.entry(e).or_default().push(k + 1);
        }
    }
    Ok((hl_nodes, hl_edges))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_state_lists_arrays_in_declaration_order() {
        let m = crate::lang::load_str(
            "t.cub",
            "type s = Idle | Want\nvar Sem : bool\narray A[proc] : s\narray G[proc, proc] : bool\n\
             init (z w) { A[z] = Idle && Sem = False && G[z,w] = False }\n\
             transition t (i) requires { A[i] = Idle } { A[i] := Want; }\n",
        )
        .unwrap();
        let inst = Instance::new(&m, 2);
        // Slots: Sem, A[1], A[2], G[1,1], G[1,2], G[2,1], G[2,2].
        let st = vec![0, 0, 1, 0, 1, 0, 0];
        assert_eq!(
            compact_state(&inst, &st),
            "Sem=False A=[Idle,Want] G=[[False,True],[False,False]]"
        );
    }

    #[test]
    fn quoting_escapes() {
        assert_eq!(quote("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
    }
}
