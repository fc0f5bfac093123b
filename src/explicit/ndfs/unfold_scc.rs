//! The lasso of a weakly fair accepting component found by the SCC search (`scc`), on
//! the unreduced instance. The stem is the real path on the search's stack to its top
//! node s_u; the cycle walks the real set R of the theorem in `scc` from s_u (`walk`),
//! inside the top partial component: the nodes live with a number at least its root's.

use super::report::Found;
use super::scc::{Scc, flags};
use super::unfold::{deadlock_lasso, real_path};
use super::walk::{Node, Unfold, Walk};
use crate::explicit::store::hash_words;

impl Scc<'_> {
    /// The lasso of the top partial component, found weakly fair and accepting.
    pub(super) fn component_lasso(&mut self) -> Found {
        let recs: Vec<Vec<u64>> = self.stack_records().iter().map(|r| r.to_vec()).collect();
        let refs: Vec<&[u64]> = recs.iter().map(|r| &r[..]).collect();
        if let Some(l) = deadlock_lasso(&self.x, self.kw, &refs, self.fair) {
            return Found::Lasso(l);
        }
        let stem = match real_path(&self.x, self.kw, &refs) {
            Ok(s) => s,
            Err(e) => return Found::Lasso(Err(e)),
        };
        let w = self.x.w;
        let top = refs.last().expect("the stack holds the component's node");
        let start: Node = (top[..w].to_vec(), top[w + self.kw]);
        let base = self.roots.last().expect("a component").num;
        let (layout, table) = (self.layout, &self.table);
        let live_num = &self.live_num;
        let mut key = vec![0; layout.len()];
        let mut walk = Walk {
            x: &mut self.x,
            run: &self.run,
            fair: self.fair,
            all: self.all,
            member: |state: &[u64], q: u64| {
                layout.fill(state, q, &mut key);
                table.get(&key, hash_words(&key)).is_some_and(|f| {
                    let (num, at) = flags(f[0]);
                    live_num.get(at) == Some(&num) && num >= base
                })
            },
        };
        match walk.lasso(stem, start) {
            Ok(l) => Found::Lasso(Ok(l)),
            Err(Unfold::Error(e)) => Found::Lasso(Err(e)),
            Err(Unfold::Limit(l)) => Found::Limit(l),
        }
    }
}
