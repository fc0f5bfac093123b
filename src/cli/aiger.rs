//! `nfold aiger`: write the transition system of one size or of the aggregate of a range
//! of sizes as binary AIGER 1.9 (`bmc::aiger`), for ABC and other hardware model
//! checkers. With `--live`, the product of the model with the Büchi automaton of a
//! negated `ltl` property and its justice property (`bmc::aiger::justice`; weak
//! fairness per process slot with `--fair`), in AIGER 1.9's J section, or with `--abc`
//! as the named outputs ABC's `l2s` reads; with `--live --l2s`, the liveness-to-safety
//! product (`live::Product`) whose bad output is the fair lasso closing, the very
//! system `nfold`'s SAT engines check for the property.

use super::{load, parse_data_values, parse_size, parse_sizes, sizes_for, usage};
use crate::bmc::aiger;
use crate::transys::Transys;
use crate::transys::frame::Encoding;
use crate::verdict::EXIT_OK;
use clap::Args;
use std::io::IsTerminal;

#[derive(Args, Debug)]
pub(crate) struct AigerArgs {
    /// The model file (.cub).
    file: String,
    /// One size.
    #[arg(long, value_name = "N", value_parser = parse_size, conflicts_with = "sizes")]
    size: Option<usize>,
    /// A range of sizes, e.g. `1..5`, written as one system (the aggregate): a bad
    /// output is asserted when the property fails at some size of the range.
    #[arg(long, value_name = "A..B", value_parser = parse_sizes)]
    sizes: Option<(usize, usize)>,
    /// Write to this file (default: standard output, when it is not a terminal).
    #[arg(short, long, value_name = "FILE")]
    output: Option<String>,
    /// Export only this `unsafe` property (repeatable; default: every one). The range
    /// error output is always written.
    #[arg(long = "property", value_name = "NAME")]
    properties: Vec<String>,
    /// Export an `ltl` property (the one named by `--property`, or the model's only
    /// one): the product of the model with the Büchi automaton of its negation, with a
    /// justice property (AIGER 1.9's J section) that a run violating it satisfies.
    #[arg(long)]
    live: bool,
    /// With `--live`: only weakly fair runs count (one more justice literal per
    /// process slot: absent, or executes, or has no enabled transition).
    #[arg(long, requires = "live")]
    fair: bool,
    /// With `--live`: the justice literals as ordinary outputs named for ABC's `l2s`
    /// (`assume_fair_*`, `assert_fair_never`; ABC does not read the J section): run
    /// `berkeley-abc -c "read FILE; l2s; pdr"`.
    #[arg(long, requires = "live", conflicts_with = "l2s")]
    abc: bool,
    /// With `--live`: the liveness-to-safety product instead (Biere, Artho, Schuppan
    /// 2002), as the SAT engines check it: its bad output is a lasso of the model
    /// violating the property closing (a product run of depth k is a lasso of k - 1
    /// steps).
    #[arg(long, requires = "live")]
    l2s: bool,
    /// Read every state bit from an `init:` input at time 0 instead of giving the bits
    /// that are constant in the initial states as latch reset values (an equivalent
    /// circuit; ABC's `pdr` is often faster on it).
    #[arg(long)]
    init_inputs: bool,
    /// Export the model as written, not reduced to what is exported (by default cells
    /// nothing exported reads, constants, equivalent cells and transitions that cannot
    /// fire are left out, as for `nfold check`; the file's comments say so).
    #[arg(long)]
    no_reduce: bool,
    /// The number of values of every abstract type (`type data`; default: chosen from
    /// the model).
    #[arg(long, value_name = "D", value_parser = parse_data_values)]
    data_values: Option<usize>,
    /// The window over which `int` is checked (default: derived from the model).
    #[arg(long, value_name = "LO..HI", value_parser = super::parse_int_range, allow_hyphen_values = true)]
    int_range: Option<(i64, i64)>,
}

/// Run `nfold aiger`; returns the exit code.
pub(crate) fn aiger(a: AigerArgs) -> i32 {
    if a.size.is_none() && a.sizes.is_none() {
        return usage("give the size to export: --size N or --sizes A..B");
    }
    if a.output.is_none() && std::io::stdout().is_terminal() {
        return usage("binary AIGER is not written to a terminal: give -o FILE or redirect");
    }
    let model = match load(&a.file, a.data_values, a.int_range) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let sizes = match sizes_for(&model, a.sizes, a.size) {
        Ok(s) => s,
        Err(e) => return usage(&e),
    };
    let (min, max) = (sizes[0], sizes[sizes.len() - 1]);
    let reduction = match reduced(&a, &model, (min, max)) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let exported = reduction.as_ref().map_or(&model, |r| &r.model);
    let mut aig = match export(&a, exported, (min, max)) {
        Ok(aig) => aig,
        Err(code) => return code,
    };
    let system = match &reduction {
        Some(r) => format!(
            "the model reduced to what is exported ({}; --no-reduce for the model as written)",
            r.plan.summary(&model)
        ),
        None => "the model as written".to_string(),
    };
    aig.comments
        .insert(0, format!("nfold: the transition system of {system}"));
    let result = match &a.output {
        Some(path) => std::fs::File::create(path).and_then(|mut f| aig.write(&mut f)),
        None => aig.write(&mut std::io::stdout().lock()),
    };
    if let Err(e) = result {
        return usage(&format!("cannot write the AIGER file: {e}"));
    }
    let named = |prefix: &str, tag: char, xs: &[(String, u32)]| {
        let names: Vec<String> = xs
            .iter()
            .enumerate()
            .map(|(k, (name, _))| format!("{tag}{k} {name}"))
            .collect();
        (!xs.is_empty()).then(|| format!("{prefix} {}", names.join(", ")))
    };
    let mut outputs: Vec<String> = named("bad outputs", 'b', &aig.bad)
        .into_iter()
        .chain(named("outputs", 'o', &aig.outputs))
        .collect();
    outputs.extend(aig.justice.iter().enumerate().map(|(k, j)| {
        format!(
            "justice property j{k} {} ({} literals: {})",
            j.name,
            j.lits.len(),
            j.lits
                .iter()
                .map(|l| l.0.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }));
    let meaning = if !aig.outputs.is_empty() {
        "for ABC: `read FILE; l2s; pdr` (output 1 of its miter asserted: a lasso)"
    } else if !aig.justice.is_empty() {
        "a witness of the justice property is a run violating it; a bad output at time k is a range error at depth k"
    } else {
        "a bad output at time k is a violation at depth k"
    };
    eprintln!(
        "nfold aiger: {} at {} ({system}): {} inputs, {} latches, {} and gates; {}; {meaning}",
        a.file,
        if min == max {
            format!("size {min}")
        } else {
            format!("sizes {min}..{max}")
        },
        aig.inputs.len(),
        aig.latches.len(),
        aig.ands.len(),
        outputs.join(", ")
    );
    EXIT_OK
}

/// The reduction of `model` to what `a` exports (`None`: nothing to reduce, or
/// `--no-reduce`).
fn reduced(
    a: &AigerArgs,
    model: &crate::model::ir::Model,
    sizes: (usize, usize),
) -> Result<Option<crate::portfolio::reduced::Reduction>, i32> {
    if a.no_reduce {
        return Ok(None);
    }
    let mut asked = crate::model::reduce::Asked {
        fair: a.fair,
        ..Default::default()
    };
    if a.live {
        asked.ltls = a
            .properties
            .iter()
            .filter_map(|p| model.ltl_by_name(p))
            .collect();
        if asked.ltls.is_empty() {
            asked.ltls = (0..model.ltls.len()).collect();
        }
    } else {
        asked.props = unsafe_props(model, &a.properties)?;
    }
    Ok(
        crate::portfolio::reduced::reduce_model(model, &asked, sizes)
            .ok()
            .flatten(),
    )
}

/// The graph `nfold aiger` writes for `a` at sizes min..=max.
fn export(
    a: &AigerArgs,
    model: &crate::model::ir::Model,
    (min, max): (usize, usize),
) -> Result<aiger::Aig, i32> {
    if !a.live {
        let props = unsafe_props(model, &a.properties)?;
        let mut ts = Transys::new(model, min, max, Encoding::Binary);
        return Ok(aiger::build(&mut ts, &props, !a.init_inputs));
    }
    let named: Vec<usize> = a
        .properties
        .iter()
        .filter_map(|p| model.ltl_by_name(p))
        .collect();
    let prop = match (named.as_slice(), model.ltls.len()) {
        ([k], _) if a.properties.len() == 1 => *k,
        ([], 1) if a.properties.is_empty() => 0,
        _ => {
            return Err(usage(
                "--live exports one `ltl` property: name it with --property (the model has no other)",
            ));
        }
    };
    if a.l2s {
        let product = crate::live::Product::new(model, prop, a.fair).map_err(|e| usage(&e))?;
        let mut ts = Transys::new(&product.model, min, max, Encoding::Binary);
        return Ok(aiger::build(
            &mut ts,
            &[crate::live::LOOP_PROP],
            !a.init_inputs,
        ));
    }
    let aig = aiger::justice::build(model, prop, a.fair, (min, max), !a.init_inputs)
        .map_err(|e| usage(&e))?;
    Ok(if a.abc {
        aiger::justice::for_abc(aig)
    } else {
        aig
    })
}

/// The `unsafe` properties `names` (every one when none is named).
fn unsafe_props(model: &crate::model::ir::Model, names: &[String]) -> Result<Vec<usize>, i32> {
    let mut props = Vec::new();
    for p in names {
        match model.unsafe_by_name(p) {
            Some(k) if !props.contains(&k) => props.push(k),
            Some(_) => {}
            None => {
                return Err(usage(&format!(
                    "no `unsafe` or `invariant` property named `{p}`"
                )));
            }
        }
    }
    if names.is_empty() {
        props = (0..model.unsafes.len()).collect();
    }
    Ok(props)
}
