//! A removed event's entry in an event map (an interface, a type literal, a
//! `declare module` block): deleted, with the types only it used.

use super::{Fixer, range};
use crate::model::{Applicability, Edit, Fix};
use oxc_ast::ast::*;
use oxc_span::GetSpan;
use std::ops::Range;

impl Fixer<'_, '_, '_> {
    /// The event-map members of an interface or type literal: the removed ones are deleted;
    /// `whole` is what to delete instead when every member is removed (the `declare module`
    /// block holding only this interface).
    pub(super) fn members(&mut self, members: &[TSSignature<'_>], whole: Option<Range<usize>>) {
        // Each member's span, and for a removed event's entry its occurrence and name.
        let keyed: Vec<(Range<usize>, Option<RemovedKey>)> = members
            .iter()
            .map(|m| {
                let key = match m {
                    TSSignature::TSPropertySignature(p) => Some(&p.key),
                    TSSignature::TSMethodSignature(p) => Some(&p.key),
                    _ => None,
                };
                let hit = key.and_then(|k| match k {
                    PropertyKey::StringLiteral(s) => {
                        let r = s.span.start as usize + 1..s.span.end as usize - 1;
                        let ev = s.value.as_str();
                        self.catalog().lookup(ev).map(|_| (r, ev.to_owned()))
                    }
                    _ => None,
                });
                (range(m.span()), hit)
            })
            .collect();
        let all_removed = !keyed.is_empty() && keyed.iter().all(|(_, h)| h.is_some());
        for (span, hit) in &keyed {
            let Some((occurrence, event)) = hit else {
                continue;
            };
            let (target, message) = match (&whole, all_removed) {
                (Some(w), true) => (
                    self.removal(self.with_leading_comments(w.clone())),
                    "delete the declaration-merging block: every event it declares was removed"
                        .to_owned(),
                ),
                _ => {
                    let end = self.past_separator(span.end);
                    (
                        self.removal(self.with_leading_comments(span.start..end)),
                        format!("delete the declaration of the removed event `{event}`"),
                    )
                }
            };
            let types = self.types_only_used_in(target.clone());
            let message = if types.is_empty() {
                message
            } else {
                format!("{message}, and the types only it uses")
            };
            let mut edits = vec![Edit::new(target.start, target.end, "")];
            edits.extend(types.into_iter().map(|r| Edit::new(r.start, r.end, "")));
            edits.sort_by_key(|e| (e.start, e.end));
            self.push(
                occurrence.clone(),
                Fix::new(Applicability::MachineApplicable, message, edits),
            );
        }
    }
}

/// The occurrence range and name of a member keyed by a removed event.
type RemovedKey = (Range<usize>, String);

/// The interface a `declare module` block consists of, if it holds nothing else.
pub(super) fn sole_interface<'b, 'a>(
    block: &'b TSModuleBlock<'a>,
) -> Option<&'b TSInterfaceDeclaration<'a>> {
    let [only] = block.body.as_slice() else {
        return None;
    };
    match only {
        Statement::TSInterfaceDeclaration(i) => Some(i),
        Statement::ExportDeclaration(e) => match &e.declaration {
            Declaration::TSInterfaceDeclaration(i) => Some(&**i),
            _ => None,
        },
        _ => None,
    }
}
