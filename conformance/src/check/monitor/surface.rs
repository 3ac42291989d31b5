//! Surface metadata: `surfaceOp` (SURF-1) and `sourceEventSeqs` (SURF-2).

use super::Monitor;
use crate::check::event::{Envelope, Loc};
use crate::check::values::{clip, parse_seqs, seq_list};
use crate::vocab::Profile;

impl Monitor {
    /// SURF-1 and SURF-2.
    pub(super) fn surface_meta(&mut self, at: Loc, env: &Envelope<'_>, surface: bool) {
        match (surface, env.surface_op) {
            (true, None) => self.report(
                "SURF-1",
                at,
                format!("surface event `{}` has no `surfaceOp`", env.kind),
            ),
            (false, Some(_)) => self.report(
                "SURF-1",
                at,
                format!(
                    "`{}` is not a surface event but carries `surfaceOp`",
                    env.kind
                ),
            ),
            (true, Some(op)) => {
                let ok = op.get() == "\"append\"" || op.get().starts_with('{');
                if !ok {
                    self.report(
                        "SURF-1",
                        at,
                        format!(
                            "`surfaceOp` must be \"append\" or a replace object, not {}",
                            clip(op.get())
                        ),
                    );
                }
            }
            (false, None) => {}
        }
        let Some(raw) = env.source_event_seqs else {
            return;
        };
        if !surface {
            self.report(
                "SURF-1",
                at,
                format!(
                    "`{}` is not a surface event but carries `sourceEventSeqs`",
                    env.kind
                ),
            );
            return;
        }
        let Some(seqs) = parse_seqs(raw) else {
            self.report(
                "SURF-2",
                at,
                format!(
                    "`sourceEventSeqs` is not an array of seqs: {}",
                    clip(raw.get())
                ),
            );
            return;
        };
        if seqs.is_empty()
            && !(self.profile == Profile::V2026_08 && env.kind == "assistant/message")
        {
            self.report(
                "SURF-2",
                at,
                format!(
                    "`{}` carries an empty `sourceEventSeqs`; omit the field instead",
                    env.kind
                ),
            );
        }
        // A citation is almost always ascending: no copy to sort then.
        let twice = !seqs.windows(2).all(|w| w[0] < w[1]) && {
            let mut sorted = seqs.clone();
            sorted.sort_unstable();
            sorted.windows(2).any(|w| w[0] == w[1])
        };
        if twice {
            self.report("SURF-2", at, "`sourceEventSeqs` lists a seq twice");
        }
        if let Some(bad) = seqs.iter().find(|s| **s >= at.seq) {
            self.report_diff(
                "SURF-2",
                at,
                format!("`sourceEventSeqs` cites seq {bad}, which is not an earlier event"),
                format!("seqs < {}", at.seq),
                seq_list(&seqs),
            );
        }
        self.citation = Some(seqs);
    }
}
