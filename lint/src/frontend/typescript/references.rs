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

/// The references of one program.
#[derive(Debug, Default)]
pub(super) struct References {
    /// Every identifier reference (values and types) by name: its range.
    names: HashMap<String, Vec<Range<usize>>>,
    /// `Object.member` (in values and in types), by object name: the member names.
    members: HashMap<String, Vec<String>>,
    /// References to an object name that are not `Object.member` (the whole object is used).
    whole: HashMap<String, usize>,
}

fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

impl References {
    /// Indexes every reference in `program`.
    pub fn of(program: &Program<'_>) -> Self {
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
            .map_or(0, |m| m.iter().filter(|n| *n == member).count())
    }

    /// How many references to `object` are not `object.member` (`Object.values(Ev)`, `Ev[k]`).
    pub fn whole_uses(&self, object: &str) -> usize {
        self.whole.get(object).copied().unwrap_or(0)
    }

    fn add(&mut self, name: &str, span: Span) {
        push(&mut self.names, name, range(span));
    }

    fn add_member(&mut self, object: &str, member: &str) {
        push(&mut self.members, object, member.to_owned());
    }
}

/// Appends `item` to the list of `key`, allocating the key only the first time it is seen (a
/// file references the same few names thousands of times).
fn push<T>(map: &mut HashMap<String, Vec<T>>, key: &str, item: T) {
    match map.get_mut(key) {
        Some(list) => list.push(item),
        None => {
            map.insert(key.to_owned(), vec![item]);
        }
    }
}

impl<'a> Visit<'a> for References {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.add(it.name.as_str(), it.span);
        match self.whole.get_mut(it.name.as_str()) {
            Some(n) => *n += 1,
            None => {
                self.whole.insert(it.name.as_str().to_owned(), 1);
            }
        }
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
