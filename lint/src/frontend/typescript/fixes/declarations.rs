//! Declarations holding a removed name (a `const`, a string enum member): deleted when
//! nothing uses them.

use super::{Fixer, range};
use crate::model::{Applicability, Edit, Fix};
use oxc_ast::ast::*;
use std::ops::Range;

impl Fixer<'_, '_, '_> {
    /// The range of the name inside a string literal spelled exactly as a removed event.
    fn removed_literal(&self, e: &Expression<'_>) -> Option<(Range<usize>, String)> {
        let Expression::StringLiteral(lit) = e.get_inner_expression() else {
            return None;
        };
        let r = lit.span.start as usize + 1..lit.span.end as usize - 1;
        let ev = lit.value.as_str();
        (self.catalog().lookup(ev).is_some() && self.src.get(r.clone()) == Some(ev))
            .then(|| (r, ev.to_owned()))
    }

    /// `const TURN_START = 'agent/turn-start'` (one declarator, not exported): deleted when
    /// nothing references it.
    pub(super) fn unused_const(&mut self, v: &VariableDeclaration<'_>, stmt: Range<usize>) {
        if v.kind != VariableDeclarationKind::Const || v.declare {
            return;
        }
        let [d] = v.declarations.as_slice() else {
            return;
        };
        let (BindingPattern::BindingIdentifier(id), Some(init)) = (&d.id, &d.init) else {
            return;
        };
        let Some((occurrence, event)) = self.removed_literal(init) else {
            return;
        };
        let name = id.name.as_str();
        if !self.refs.of_name(name).is_empty() {
            return;
        }
        let r = self.removal(self.with_leading_comments(stmt));
        self.push(
            occurrence,
            Fix::new(
                Applicability::MachineApplicable,
                format!("delete `{name}`: nothing uses it, and `{event}` was removed"),
                vec![Edit::new(r.start, r.end, "")],
            ),
        );
    }

    /// The members of a string enum (not exported) spelled with a removed event: each unused
    /// one is deleted, the whole enum when every member goes and nothing names the enum.
    pub(super) fn unused_enum_members(&mut self, e: &TSEnumDeclaration<'_>, stmt: Range<usize>) {
        let enum_name = e.id.name.as_str();
        let members: Vec<(Range<usize>, Option<RemovedMember>)> = e
            .body
            .members
            .iter()
            .map(|m| {
                let name = match &m.id {
                    TSEnumMemberName::Identifier(id) => Some(id.name.as_str()),
                    TSEnumMemberName::String(s) => Some(s.value.as_str()),
                    _ => None,
                };
                let hit = name.zip(m.initializer.as_ref()).and_then(|(n, init)| {
                    self.removed_literal(init)
                        .map(|(r, ev)| (r, ev, n.to_owned()))
                });
                (range(m.span), hit)
            })
            .collect();
        // A member is unused when no `Ev.Member` and no bare `Member` (another member's
        // initializer) refers to it.
        let unused = |member: &str| {
            self.refs.member_uses(enum_name, member) == 0 && self.refs.of_name(member).is_empty()
        };
        let whole_enum = members
            .iter()
            .all(|(_, hit)| hit.as_ref().is_some_and(|(_, _, n)| unused(n)))
            && self.refs.of_name(enum_name).is_empty();
        let whole_uses = self.refs.whole_uses(enum_name);
        let mut fixes = Vec::new();
        for (span, hit) in &members {
            let Some((occurrence, event, member)) = hit else {
                continue;
            };
            if !unused(member) {
                continue;
            }
            let (target, message, applicability) = if whole_enum {
                (
                    self.removal(self.with_leading_comments(stmt.clone())),
                    format!(
                        "delete the enum `{enum_name}`: every member names a removed event, and nothing uses it"
                    ),
                    Applicability::MachineApplicable,
                )
            } else if whole_uses > 0 {
                (
                    self.removal(
                        self.with_leading_comments(span.start..self.past_separator(span.end)),
                    ),
                    format!(
                        "delete `{enum_name}.{member}` (`{event}` was removed; `{enum_name}` is also used as a whole: check those uses)"
                    ),
                    Applicability::Suggestion,
                )
            } else {
                (
                    self.removal(
                        self.with_leading_comments(span.start..self.past_separator(span.end)),
                    ),
                    format!(
                        "delete `{enum_name}.{member}`: nothing uses it, and `{event}` was removed"
                    ),
                    Applicability::MachineApplicable,
                )
            };
            fixes.push((
                occurrence.clone(),
                Fix::new(
                    applicability,
                    message,
                    vec![Edit::new(target.start, target.end, "")],
                ),
            ));
        }
        for (occurrence, fix) in fixes {
            self.push(occurrence, fix);
        }
    }
}

/// An enum member spelled with a removed event: its occurrence, the event, the member's name.
type RemovedMember = (Range<usize>, String, String);
