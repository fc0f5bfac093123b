//! DIMACS CNF output: the header, comment lines (what the variables mean) and clauses.

use super::{Cnf, Lit};
use std::io::{self, Write};

/// Write `cnf` plus the unit clauses `units` (the assumptions of the query) as DIMACS.
pub fn write(out: &mut dyn Write, cnf: &Cnf, units: &[Lit], comments: &[String]) -> io::Result<()> {
    let mut w = io::BufWriter::new(out);
    for c in comments {
        for line in c.lines() {
            writeln!(w, "c {line}")?;
        }
    }
    writeln!(
        w,
        "p cnf {} {}",
        cnf.num_vars,
        cnf.num_clauses + units.len()
    )?;
    for c in cnf.clauses_from(0) {
        for l in c {
            write!(w, "{l} ")?;
        }
        writeln!(w, "0")?;
    }
    for u in units {
        writeln!(w, "{u} 0")?;
    }
    w.flush()
}
