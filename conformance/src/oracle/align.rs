//! The alignment of the delivered chunks with the recorded ones, at minimal cost.

use super::expected::{ChunkRole, ExpectedChunk};
use super::log_index::ObservedChunk;
use crate::vocab::chunk::StreamChunk;

/// Whether observed chunk `o` is expected chunk `i` (same ordinal turn and step, same chunk).
pub(super) fn matches_at(exp: &[ExpectedChunk], i: usize, o: &ObservedChunk) -> bool {
    let e = &exp[i];
    (e.turn, e.step) == (o.turn, o.step)
        && match e.role {
            // The failure payload of a recorded throw is the runtime's to word, so any failed
            // `finish` stands for it — unless it is the next delivered chunk itself.
            ChunkRole::Synthetic => {
                e.chunk == o.chunk
                    || (matches!(&o.chunk, StreamChunk::Finish { reason, .. } if reason.is_failure())
                        && exp
                            .get(i + 1)
                            .is_none_or(|n| n.role == ChunkRole::Synthetic || n.chunk != o.chunk))
            }
            _ => e.chunk == o.chunk,
        }
}

/// One step of the alignment of the delivered chunks with the recorded ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Edit {
    /// Expected chunk `i` was recorded as observed chunk `j`.
    Match(usize, usize),
    /// Expected chunk `i` is missing (before observed chunk `j`).
    Missing(usize, usize),
    /// Observed chunk `j` was recorded where expected chunk `i` would come next.
    Extra(usize, usize),
}

/// Aligns the expected with the observed chunks at minimal cost. Losing a chunk of a failed or
/// interrupted stream costs less than losing any other, so that when equal chunks repeat
/// (a retried call that starts like the failed one) the alignment explains a divergence by
/// the most specific fault.
pub(super) fn align(exp: &[ExpectedChunk], obs: &[ObservedChunk]) -> Vec<Edit> {
    let (n, m) = (exp.len(), obs.len());
    let miss = |i: usize| {
        if exp[i].role == ChunkRole::Normal {
            2
        } else {
            1
        }
    };
    let width = m + 1;
    let mut dp = vec![0u32; (n + 1) * width];
    for i in (0..=n).rev() {
        for j in (0..=m).rev() {
            dp[i * width + j] = if i == n {
                2 * (m - j) as u32
            } else if j == m {
                miss(i) + dp[(i + 1) * width + j]
            } else {
                let mut best = (miss(i) + dp[(i + 1) * width + j]).min(2 + dp[i * width + j + 1]);
                if matches_at(exp, i, &obs[j]) {
                    best = best.min(dp[(i + 1) * width + j + 1]);
                }
                best
            };
        }
    }
    let mut edits = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        let here = dp[i * width + j];
        if i < n && j < m && matches_at(exp, i, &obs[j]) && here == dp[(i + 1) * width + j + 1] {
            edits.push(Edit::Match(i, j));
            i += 1;
            j += 1;
        } else if i < n && here == miss(i) + dp[(i + 1) * width + j] {
            edits.push(Edit::Missing(i, j));
            i += 1;
        } else {
            edits.push(Edit::Extra(i, j));
            j += 1;
        }
    }
    edits
}
