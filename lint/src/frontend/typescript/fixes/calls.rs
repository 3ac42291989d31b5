//! The direct calls of each name in one file (`drainSteering(ctx, agent, turn)`): where a fix
//! that drops a now-unused parameter of a local function drops the argument too, as upstream's
//! own migration did, instead of renaming the parameter `_ctx`.

use super::exprs::pure;
use super::range;
use crate::hash::HashMap;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;
use std::ops::Range;

/// One argument of a call: its range, and whether evaluating it has no side effect (so
/// deleting it keeps behaviour).
pub(super) type Arg = (Range<usize>, bool);

/// The calls `name(…)` of one program, by name: each call's arguments, or `None` for a call
/// with a spread argument (which parameter an argument binds is unknown).
#[derive(Default)]
pub(super) struct LocalCalls {
    by_name: HashMap<String, Vec<Option<Vec<Arg>>>>,
}

impl LocalCalls {
    /// Indexes every direct call in `program`.
    pub fn of(program: &Program<'_>) -> Self {
        let mut calls = LocalCalls::default();
        calls.visit_program(program);
        calls
    }

    /// The calls of `name`.
    pub fn of_name(&self, name: &str) -> &[Option<Vec<Arg>>] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }
}

impl<'a> Visit<'a> for LocalCalls {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        if let Expression::Identifier(id) = &it.callee {
            let args: Option<Vec<Arg>> = it
                .arguments
                .iter()
                .map(|a| a.as_expression().map(|e| (range(e.span()), pure(e))))
                .collect();
            self.by_name
                .entry(id.name.as_str().to_owned())
                .or_default()
                .push(args);
        }
        walk::walk_call_expression(self, it);
    }
}

/// The range that deleting element `i` of a comma-separated list removes (with one comma).
pub(super) fn list_removal(items: &[Range<usize>], i: usize) -> Range<usize> {
    match (
        items.get(i + 1),
        i.checked_sub(1).and_then(|p| items.get(p)),
    ) {
        (Some(next), _) => items[i].start..next.start,
        (None, Some(prev)) => prev.end..items[i].end,
        (None, None) => items[i].clone(),
    }
}
