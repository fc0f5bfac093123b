//! `nfold check --distributed`: the explicit safety search on timely dataflow workers
//! (`explicit::reach::dist`), its flags (timely's own `-w`, `-n`, `-p`, `-h` under
//! clearer names), and what a process other than 0 does: the same run, silently.

use crate::explicit::reach::dist::Cluster;
use std::time::Duration;

/// The flags of a distributed search.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct DistArgs {
    /// explicit: distribute the safety search over timely dataflow workers: states
    /// partitioned by the hash of their canonical form, the frontier exchanged per BFS
    /// level (same counts, shortest traces). Run the same command on every process,
    /// each with its --process; only process 0 prints the report (see docs/scaling.md).
    #[arg(long)]
    pub distributed: bool,
    /// --distributed: worker threads per process (timely's -w).
    #[arg(long, value_name = "W", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub workers: u32,
    /// --distributed: how many processes take part (timely's -n).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub processes: u32,
    /// --distributed: this process's index, 0..N-1 (timely's -p); 0 prints the report.
    #[arg(long, value_name = "I", default_value_t = 0)]
    pub process: u32,
    /// --distributed with N >= 2: a file of N lines `host:port`, process 0 first, each
    /// process listening on its own line (timely's -h); `#` starts a comment line.
    #[arg(long, value_name = "FILE")]
    pub hostfile: Option<String>,
    /// --distributed: seconds to wait for every process to be connected before giving up.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub connect_timeout: u64,
}

impl DistArgs {
    /// The cluster asked for, if `--distributed`; an error for its flags without it.
    pub fn cluster(&self) -> Result<Option<Cluster>, String> {
        if !self.distributed {
            if self.workers != 1
                || self.processes != 1
                || self.process != 0
                || self.hostfile.is_some()
            {
                return Err(
                    "--workers, --processes, --process and --hostfile belong to --distributed"
                        .into(),
                );
            }
            return Ok(None);
        }
        Cluster::new(
            self.workers as usize,
            self.processes as usize,
            self.process as usize,
            self.hostfile.as_deref(),
            Duration::from_secs(self.connect_timeout),
        )
        .map(Some)
    }

    /// Whether this process prints nothing on standard output (a process other than 0).
    pub fn silent(&self) -> bool {
        self.distributed && self.process != 0
    }
}

/// Send standard output to /dev/null for the rest of the run: a process other than 0
/// runs the same command as process 0 (the same sizes, the same decisions) but its
/// report is process 0's to print. Errors still go to standard error.
pub(crate) fn silence_stdout() -> Result<(), String> {
    use std::os::fd::AsRawFd;
    let null = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/null")
        .map_err(|e| format!("cannot open /dev/null: {e}"))?;
    // SAFETY: both descriptors are open; dup2 only replaces descriptor 1.
    let r = unsafe { libc::dup2(null.as_raw_fd(), 1) };
    if r < 0 {
        return Err(format!(
            "cannot silence standard output: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}
