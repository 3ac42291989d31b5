//! Where each name of one file is referenced, so a fix can tell whether a declaration is still
//! used before it deletes it (a const holding a removed name, an enum member, a type only a
//! deleted event-map entry used).
//!
//! Names, not scopes: a reference to a shadowing binding of the same name counts as a use too,
//! which can only keep a declaration that could have gone, never delete one still in use.

use crate::hash::HashMap;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::Span;
use std::ops::Range;

/// The references of one program, its names borrowed from the program.
#[derive(Debug, Default)]
pub(super) struct References<'a> {
    /// Every identifier reference (values and types) by name: its range.
    names: HashMap<&'a str, Vec<Range<usize>>>,
    /// `Object.member` (in values and in types), by object name: the member names.
    members: HashMap<&'a str, Vec<&'a str>>,
    /// References to an object name that are not `Object.member` (the whole object is used).
    whole: HashMap<&'a str, usize>,
}

fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

impl<'a> References<'a> {
    /// Indexes every reference in `program`.
    pub fn of(program: &Program<'a>) -> Self {
        let mut refs = References::default();
        refs.visit_program(program);
        refs
    }

    /// The ranges where `name` is referenced.
    pub fn of_name(&self, name: &str) -> &[Range<usize>] {
        self.names.get(name).map_or(&[], Vec::as_slice)
    }

    /// How many times `object.member` is referenced.
    pub fn member_uses(&self, object: &str, member: &str) -> usize {
        self.members
            .get(object)
            .map_or(0, |m| m.iter().filter(|n| **n == member).count())
    }

    /// How many references to `object` are not `object.member` (`Object.values(Ev)`, `Ev[k]`).
    pub fn whole_uses(&self, object: &str) -> usize {
        self.whole.get(object).copied().unwrap_or(0)
    }

    fn add(&mut self, name: &'a str, span: Span) {
        self.names.entry(name).or_default().push(range(span));
    }

    fn add_member(&mut self, object: &'a str, member: &'a str) {
        self.members.entry(object).or_default().push(member);
    }
}

impl<'a> Visit<'a> for References<'a> {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.add(it.name.as_str(), it.span);
        *self.whole.entry(it.name.as_str()).or_default() += 1;
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if let Expression::Identifier(id) = &it.object {
            self.add(id.name.as_str(), id.span);
            self.add_member(id.name.as_str(), it.property.name.as_str());
            return;
        }
        walk::walk_static_member_expression(self, it);
    }

    fn visit_ts_qualified_name(&mut self, it: &TSQualifiedName<'a>) {
        if let TSTypeName::IdentifierReference(id) = &it.left {
            self.add(id.name.as_str(), id.span);
            self.add_member(id.name.as_str(), it.right.name.as_str());
            return;
        }
        walk::walk_ts_qualified_name(self, it);
    }
}
