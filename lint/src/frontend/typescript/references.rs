//! Where each name of one file is referenced, so a fix can tell whether a declaration is still
//! used before it deletes it (a const holding a removed name, an enum member, a type only a
//! deleted event-map entry used).
//!
//! Names, not scopes: a reference to a shadowing binding of the same name counts as a use too,
//! which can only keep a declaration that could have gone, never delete one still in use.

use crate::hash::HashMap;
use oxc_ast::ast::*;
#[cfg(test)]
use oxc_ast_visit::{Visit, walk};
use oxc_span::Span;
use std::ops::Range;

/// The references of one program, its names borrowed from the program.
#[derive(Debug, Default, PartialEq)]
pub(super) struct References<'a> {
    /// Every identifier reference (values and types) by name: its range, and how many of them
    /// are not `Object.member` (the whole object is used: `Object.values(Ev)`, `Ev[k]`). One
    /// table for both: a reference is looked up once (issue 32 item 1).
    names: HashMap<&'a str, (Vec<Range<usize>>, usize)>,
    /// `Object.member` (in values and in types), by object name: the member names.
    members: HashMap<&'a str, Vec<&'a str>>,
}

fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

impl<'a> References<'a> {
    /// Indexes every reference in `program` by a walk of its own: the fixer reads them in its
    /// one walk of the program (`fixes::walked`), and this is that walk's oracle.
    #[cfg(test)]
    pub fn of(program: &Program<'a>) -> Self {
        let mut refs = References::default();
        refs.visit_program(program);
        refs
    }

    /// The ranges where `name` is referenced.
    pub fn of_name(&self, name: &str) -> &[Range<usize>] {
        self.names.get(name).map_or(&[], |(at, _)| at.as_slice())
    }

    /// How many times `object.member` is referenced.
    pub fn member_uses(&self, object: &str, member: &str) -> usize {
        self.members
            .get(object)
            .map_or(0, |m| m.iter().filter(|n| **n == member).count())
    }

    /// How many references to `object` are not `object.member` (`Object.values(Ev)`, `Ev[k]`).
    pub fn whole_uses(&self, object: &str) -> usize {
        self.names.get(object).map_or(0, |(_, whole)| *whole)
    }

    fn add(&mut self, name: &'a str, span: Span) {
        self.names.entry(name).or_default().0.push(range(span));
    }

    fn add_member(&mut self, object: &'a str, member: &'a str) {
        self.members.entry(object).or_default().push(member);
    }
}

// What each node adds, apart from the walk: a visitor that reads more of the program in the
// same walk (`fixes::walked`) adds the same.
impl<'a> References<'a> {
    /// Records `it`, a reference to the whole of its name.
    pub(super) fn note_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        let (at, whole) = self.names.entry(it.name.as_str()).or_default();
        at.push(range(it.span));
        *whole += 1;
    }

    /// Records `Object.member`; `true` when that was all of `it` (nothing inside is left to
    /// walk: an identifier and a property name).
    pub(super) fn note_static_member(&mut self, it: &StaticMemberExpression<'a>) -> bool {
        let Expression::Identifier(id) = &it.object else {
            return false;
        };
        self.note_member(id, it.property.name.as_str());
        true
    }

    /// [`References::note_static_member`] for a type's `Namespace.Name`.
    pub(super) fn note_qualified_name(&mut self, it: &TSQualifiedName<'a>) -> bool {
        let TSTypeName::IdentifierReference(id) = &it.left else {
            return false;
        };
        self.note_member(id, it.right.name.as_str());
        true
    }

    /// `object.member`: a reference to `object`, and `member` of it.
    fn note_member(&mut self, object: &IdentifierReference<'a>, member: &'a str) {
        self.add(object.name.as_str(), object.span);
        self.add_member(object.name.as_str(), member);
    }
}

// The oracle's walk ([`References::of`]).
#[cfg(test)]
impl<'a> Visit<'a> for References<'a> {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.note_identifier_reference(it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if !self.note_static_member(it) {
            walk::walk_static_member_expression(self, it);
        }
    }

    fn visit_ts_qualified_name(&mut self, it: &TSQualifiedName<'a>) {
        if !self.note_qualified_name(it) {
            walk::walk_ts_qualified_name(self, it);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_span::SourceType;

    /// The index as first written: the references to an object that are not `Object.member`
    /// counted in a table of their own.
    #[derive(Default)]
    struct TwoTables<'a> {
        names: HashMap<&'a str, Vec<Range<usize>>>,
        whole: HashMap<&'a str, usize>,
    }

    impl<'a> Visit<'a> for TwoTables<'a> {
        fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
            self.names
                .entry(it.name.as_str())
                .or_default()
                .push(range(it.span));
            *self.whole.entry(it.name.as_str()).or_default() += 1;
        }

        fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
            if let Expression::Identifier(id) = &it.object {
                self.names
                    .entry(id.name.as_str())
                    .or_default()
                    .push(range(id.span));
                return;
            }
            walk::walk_static_member_expression(self, it);
        }

        fn visit_ts_qualified_name(&mut self, it: &TSQualifiedName<'a>) {
            if let TSTypeName::IdentifierReference(id) = &it.left {
                self.names
                    .entry(id.name.as_str())
                    .or_default()
                    .push(range(id.span));
                return;
            }
            walk::walk_ts_qualified_name(self, it);
        }
    }

    /// Issue 32 item 1: one table of references and whole uses answers what the two tables
    /// answered (every name's ranges in order, and its whole uses), on generated programs of
    /// plain references, member reads, qualified types and declarations.
    #[test]
    fn one_table_answers_as_two() {
        const NAMES: &[&str] = &["Ev", "A", "b", "ns", "x"];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut whole = 0;
        for _ in 0..400 {
            let mut src = String::new();
            for _ in 0..1 + rng.below(8) {
                let (n, m) = (rng.pick(NAMES), rng.pick(NAMES));
                src.push_str(&match rng.below(7) {
                    0 => format!("use({n}, {m});\n"),
                    1 => format!("{n}.{m}.{n}({m});\n"),
                    2 => format!("let v: {n}.{m} = Object.values({n});\n"),
                    3 => format!("const {n}{m} = {n}[{m}];\n"),
                    4 => format!("enum {n}{m} {{ K = 'x' }}\n"),
                    5 => format!("type T = {n}.{m}.{n} | {m};\n"),
                    _ => format!("f(() => {n}.{m} + {m});\n"),
                });
            }
            let alloc = Allocator::default();
            let ret = Parser::new(&alloc, &src, SourceType::ts()).parse();
            assert!(!ret.panicked, "{src}");
            let one = References::of(&ret.program);
            let mut two = TwoTables::default();
            two.visit_program(&ret.program);
            let names: Vec<&str> = NAMES
                .iter()
                .chain(["Object", "use", "f"].iter())
                .copied()
                .collect();
            for n in names {
                let ranges = two.names.get(n).map_or(&[][..], Vec::as_slice);
                assert_eq!(one.of_name(n), ranges, "{n}:\n{src}");
                let w = two.whole.get(n).copied().unwrap_or(0);
                assert_eq!(one.whole_uses(n), w, "{n}:\n{src}");
                whole += w;
            }
        }
        assert!(whole > 1_000, "{whole} whole uses");
    }
}
