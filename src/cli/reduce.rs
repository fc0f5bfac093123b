//! `nfold reduce`: the model the engines are handed, reduced to what is asked
//! (`model::reduce`, `portfolio::reduced`), printed as `.cub` text that the loader
//! reads back, after a comment saying what was left out.

use super::{LoadArgs, lookup_property, parse_size, usage};
use crate::model::reduce::Asked;
use crate::verdict::{EXIT_OK, PropId};
use clap::Args;

#[derive(Args, Debug)]
pub(crate) struct ReduceArgs {
    /// The model file (.cub).
    file: String,
    /// The size the reduced model is for (constants that `init` fixes may depend on
    /// it).
    #[arg(long, value_name = "N", value_parser = parse_size, default_value = "3")]
    size: usize,
    /// Reduce for this property only (`unsafe`, `invariant` or `ltl`; repeatable;
    /// default: every `unsafe` and `invariant` property, as `nfold check` asks).
    #[arg(long = "property", value_name = "NAME")]
    properties: Vec<String>,
    /// Also ask the `ltl` properties (as `nfold check --ltl`): every transition's
    /// enabledness is then observed.
    #[arg(long)]
    ltl: bool,
    /// Only weakly fair runs count (as `nfold live --fair`).
    #[arg(long)]
    fair: bool,
    /// Deadlocks are asked too (as `nfold check --deadlock`).
    #[arg(long)]
    deadlock: bool,
    #[command(flatten)]
    load: LoadArgs,
}

pub(crate) fn reduce(a: ReduceArgs) -> i32 {
    let model = match a.load.load(&a.file) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let mut asked = Asked {
        deadlock: a.deadlock,
        fair: a.fair,
        ..Default::default()
    };
    for name in &a.properties {
        match lookup_property(&model, name) {
            Ok(PropId::Unsafe(u)) => asked.props.push(u),
            Ok(PropId::Ltl(k)) => asked.ltls.push(k),
            Ok(_) => {}
            Err(e) => return usage(&e),
        }
    }
    if a.properties.is_empty() {
        asked.props = (0..model.unsafes.len()).collect();
        if a.ltl {
            asked.ltls = (0..model.ltls.len()).collect();
        }
    }
    let r = match crate::portfolio::reduced::reduce_model(&model, &asked, (a.size, a.size)) {
        Ok(Some(r)) => r,
        Ok(None) => {
            println!("(* nfold reduce: nothing to reduce at size {} *)", a.size);
            print!("{}", crate::lang::print::model_text(&model));
            return EXIT_OK;
        }
        Err(e) => {
            return usage(&format!("the reduction is not used: {e}"));
        }
    };
    println!(
        "(* nfold reduce: {} at size {}, reduced: {} *)",
        model.source.name,
        a.size,
        r.plan.summary(&model)
    );
    print!("{}", crate::lang::print::model_text(&r.model));
    EXIT_OK
}
