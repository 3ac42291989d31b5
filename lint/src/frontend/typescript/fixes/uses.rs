//! The identifiers a function body references and binds: what deleting or rewriting part of
//! it leaves unused, and which fresh names are free.

use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use std::collections::HashSet;
use std::ops::Range;

use super::range;

/// Identifier uses inside a handler.
#[derive(Default)]
pub(super) struct Uses {
    /// Every identifier referenced or bound (for fresh names).
    pub(super) names: HashSet<String>,
    /// References by name: their spans, and whether each is `NAME.session`.
    pub(super) refs: Vec<(String, Range<usize>, Option<Range<usize>>)>,
    pub(super) this: bool,
}

impl<'a> Visit<'a> for Uses {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.names.insert(it.name.as_str().to_owned());
        self.refs
            .push((it.name.as_str().to_owned(), range(it.span), None));
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        self.names.insert(it.name.as_str().to_owned());
    }

    fn visit_this_expression(&mut self, _it: &ThisExpression) {
        self.this = true;
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if let Expression::Identifier(id) = &it.object
            && it.property.name.as_str() == "session"
        {
            self.names.insert(id.name.as_str().to_owned());
            self.refs.push((
                id.name.as_str().to_owned(),
                range(id.span),
                Some(range(it.span)),
            ));
            return;
        }
        walk::walk_static_member_expression(self, it);
    }
}

impl Uses {
    pub(super) fn of_body(body: &dyn Fn(&mut Uses)) -> Uses {
        let mut u = Uses::default();
        body(&mut u);
        u
    }

    pub(super) fn count(&self, name: &str) -> usize {
        self.refs.iter().filter(|(n, _, _)| n == name).count()
    }

    /// Whether every use of `name` is `name.session`.
    pub(super) fn only_session(&self, name: &str) -> bool {
        self.refs
            .iter()
            .filter(|(n, _, _)| n == name)
            .all(|(_, _, s)| s.is_some())
    }

    pub(super) fn fresh(&self, taken: &HashSet<String>, wanted: &[&str]) -> String {
        wanted
            .iter()
            .find(|w| !self.names.contains(**w) && !taken.contains(**w))
            .map_or_else(|| format!("{}_", wanted[0]), |w| (*w).to_owned())
    }
}
