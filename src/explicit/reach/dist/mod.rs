//! The breadth-first safety search distributed over the workers of a timely dataflow
//! computation (McSherry, Isaacs, Murray, Isard, "Naiad: a timely dataflow system",
//! SOSP 2013; the `timely` crate): threads of one process, or processes on several
//! machines over TCP, the same program. States are partitioned by the hash of their
//! stored key (canonical representative under symmetry, dead cells normalized: the
//! keys of the shared-memory search), each worker storing only its partition, and the
//! frontier is exchanged once per BFS level (`worker`), so the state counts are those
//! of the shared-memory search and every counterexample is a shortest one. A violation
//! is turned into a run by walking its parent records back across the workers that
//! hold them, then rebuilt from the real initial state and replayed on the reference
//! interpreter like every trace (`report::trace_from_steps`). The first worker of
//! every process assembles the same report, so that every process goes on alike
//! (widening an int window, the next size); only process 0 prints it.
//!
//! Not covered (refused with an error): ranked ints, the lossy stores, `ltl`
//! properties. Limits (time, memory, Ctrl-C) are looked at once per level.
//!
//! The search (`search`, `worker`, on `timely` and `hashbrown`) is behind the default-on
//! `distributed` feature; without it `--distributed` is refused with that reason.

#[cfg(feature = "distributed")]
mod msg;
#[cfg_attr(not(feature = "distributed"), allow(dead_code))]
mod net;
#[cfg(feature = "distributed")]
mod search;
#[cfg(feature = "distributed")]
mod worker;

use super::ReachOptions;
use crate::model::ir::Model;
use std::time::Duration;

#[cfg(feature = "distributed")]
pub use search::check_size;

/// Where a distributed search runs: this process's workers, and every process.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Worker threads per process.
    pub workers: usize,
    pub processes: usize,
    /// This process's index (0: the one that prints the report).
    pub process: usize,
    /// `host:port` of every process, process 0 first (empty for one process).
    pub addresses: Vec<String>,
    /// How long to wait for every process to be connected.
    pub connect_timeout: Duration,
}

impl Cluster {
    /// A cluster from the command line's settings; `hostfile` (one `host:port` a line)
    /// is needed with two processes or more.
    pub fn new(
        workers: usize,
        processes: usize,
        process: usize,
        hostfile: Option<&str>,
        connect_timeout: Duration,
    ) -> Result<Cluster, String> {
        if workers == 0 || processes == 0 {
            return Err("--workers and --processes must be at least 1".into());
        }
        if process >= processes {
            return Err(format!(
                "--process {process} is not below --processes {processes} (processes are numbered from 0)"
            ));
        }
        let addresses = match (processes, hostfile) {
            (1, _) => Vec::new(),
            (_, Some(h)) => net::read_hostfile(h, processes)?,
            (_, None) => {
                return Err(format!(
                    "--processes {processes} needs --hostfile FILE: one `host:port` a line, process 0 first"
                ));
            }
        };
        Ok(Cluster {
            workers,
            processes,
            process,
            addresses,
            connect_timeout,
        })
    }

    /// Whether this process prints the report.
    pub fn leads(&self) -> bool {
        self.process == 0
    }
}

/// Why a model or option is not searched distributed, if it is not.
pub fn unsupported(model: &Model, opts: &ReachOptions) -> Option<String> {
    if opts.store != super::StoreKind::Exact {
        return Some("--distributed stores states exactly, in its own tables: drop --store".into());
    }
    if opts.rank_ints && crate::model::ints::ranked::applies(model).is_some() {
        return Some(
            "--distributed does not rank ints (this model qualifies): add --no-rank-ints".into(),
        );
    }
    None
}

/// Without the `distributed` feature: the reason, as an error.
#[cfg(not(feature = "distributed"))]
pub fn check_size(
    _model: &Model,
    _n: usize,
    _opts: &ReachOptions,
    _cluster: &Cluster,
) -> Result<super::ReachResult, String> {
    Err("this nfold was built without the `distributed` feature: build it with the default features for --distributed".into())
}
