//! Reading expressions: what a callee is called, what it is called on, static strings and
//! what an argument passes directly.

use crate::frontend::CallNames;
use crate::model::Role;
use oxc_ast::ast::*;
use oxc_span::{GetSpan, Span};
use std::ops::Range;

/// The byte range of a span.
pub(super) fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

/// `addListener` → `add_listener`, so one list of call names serves Rust and TypeScript.
pub(super) fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The role a call with this callee name gives its arguments, if any: the shared call names
/// and verbs, matched as written and in snake case (`addListener`, `emitAsync`).
pub(in crate::frontend::typescript) fn call_role(calls: &CallNames, name: &str) -> Option<Role> {
    calls.role_of(name).or_else(|| {
        // Without an upper-case letter the snake-case spelling is `name` itself.
        name.bytes()
            .any(|b| b.is_ascii_uppercase())
            .then(|| calls.role_of(&snake_case(name)))
            .flatten()
    })
}

/// [`call_role`] of each callee name a visit meets, each found once (issue 32 item 1: a file
/// calls the same few names thousands of times, and each lookup compared the name with every
/// call name).
#[derive(Debug, Default)]
pub(in crate::frontend::typescript) struct CallRoles {
    known: crate::hash::HashMap<String, Option<Role>>,
}

impl CallRoles {
    /// [`call_role`] of `name`.
    pub(in crate::frontend::typescript) fn of(
        &mut self,
        calls: &CallNames,
        name: &str,
    ) -> Option<Role> {
        if let Some(role) = self.known.get(name) {
            return *role;
        }
        let role = call_role(calls, name);
        self.known.insert(name.to_owned(), role);
        role
    }
}

/// The name a call is known by: `on` for `ctx.on(…)`, `this.ctx.on(…)`, `on(…)`,
/// `ctx['on'](…)`, `ctx?.on(…)`.
pub(super) fn callee_name<'a>(callee: &'a Expression<'a>) -> Option<&'a str> {
    match callee.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
        Expression::ComputedMemberExpression(m) => match &m.expression {
            Expression::StringLiteral(s) => Some(s.value.as_str()),
            _ => None,
        },
        Expression::ChainExpression(c) => match &c.expression {
            ChainElement::StaticMemberExpression(m) => Some(m.property.name.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// The object of a member callee (`ctx` in `ctx.on`), if the callee is a member access.
pub(super) fn callee_object<'a>(callee: &'a Expression<'a>) -> Option<&'a Expression<'a>> {
    match callee.get_inner_expression() {
        Expression::StaticMemberExpression(m) => Some(&m.object),
        Expression::ComputedMemberExpression(m) => Some(&m.object),
        Expression::ChainExpression(c) => match &c.expression {
            ChainElement::StaticMemberExpression(m) => Some(&m.object),
            ChainElement::ComputedMemberExpression(m) => Some(&m.object),
            _ => None,
        },
        _ => None,
    }
}

/// The last identifier of a receiver (`this.ctx` → `ctx`, `app.window()` → `window`).
pub(super) fn receiver_name<'a>(e: &'a Expression<'a>) -> Option<&'a str> {
    match e.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::ThisExpression(_) => Some("this"),
        Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
        Expression::CallExpression(c) => callee_name(&c.callee),
        Expression::AwaitExpression(a) => receiver_name(&a.argument),
        _ => None,
    }
}

/// The identifier a callee chain starts from: `it` for `it.only.each(t)(…)`.
pub(super) fn callee_root<'a>(e: &'a Expression<'a>) -> Option<&'a str> {
    match e.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::StaticMemberExpression(m) => callee_root(&m.object),
        Expression::ComputedMemberExpression(m) => callee_root(&m.object),
        Expression::CallExpression(c) => callee_root(&c.callee),
        _ => None,
    }
}

/// A string literal or a template literal without substitutions: its value.
pub(super) fn static_string<'a>(e: &'a Expression<'a>) -> Option<&'a str> {
    match e.get_inner_expression() {
        Expression::StringLiteral(s) => Some(s.value.as_str()),
        Expression::TemplateLiteral(t) if t.expressions.is_empty() => {
            t.quasis.first().map(|q| q.value.raw.as_str())
        }
        _ => None,
    }
}

/// Whether an expression is a string or template literal.
pub(super) fn is_stringish(e: &Expression<'_>) -> bool {
    matches!(
        e.get_inner_expression(),
        Expression::StringLiteral(_) | Expression::TemplateLiteral(_)
    )
}

/// The range of what an argument directly passes, looking through parentheses and type
/// assertions (`'x' as const`, `X!`, `<any>X`), or `None` if it computes something else.
pub(super) fn direct_target(e: &Expression<'_>) -> Option<Range<usize>> {
    let inner = e.get_inner_expression();
    match inner {
        Expression::StringLiteral(_)
        | Expression::TemplateLiteral(_)
        | Expression::Identifier(_)
        | Expression::StaticMemberExpression(_)
        | Expression::ComputedMemberExpression(_) => Some(range(inner.span())),
        _ => None,
    }
}

/// The element ranges of an array literal (`[…]`, `[…] as const`).
pub(super) fn array_elements(e: &Expression<'_>) -> Option<Vec<Range<usize>>> {
    match e.get_inner_expression() {
        Expression::ArrayExpression(arr) => Some(
            arr.elements
                .iter()
                .filter_map(|el| el.as_expression().and_then(direct_target))
                .collect(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// A name of up to 14 pieces: letters of both cases and of other scripts, digits, `_`, `$`,
    /// and the default call names and verbs (`on`, `emit`, `Listener`, …).
    fn name(rng: &mut Rng) -> String {
        const PIECES: &[&str] = &[
            "a",
            "Z",
            "_",
            "$",
            "7",
            "\u{e9}",
            "\u{c9}",
            "\u{3b1}",
            "\u{391}",
            "on",
            "On",
            "once",
            "emit",
            "Emit",
            "EMIT",
            "add",
            "Listener",
            "listener",
            "subscribe",
            "Async",
            "fire",
            "publish",
            "dispatch",
            "off",
        ];
        let len = rng.below(15);
        (0..len).map(|_| rng.pick(PIECES)).collect()
    }

    /// `call_role` asks for the snake-case spelling only when the name has an upper-case
    /// letter, as without one that spelling is the name itself, already asked (issue #32
    /// item 1: the same report with less work). Checked against the lookup it replaces, on
    /// 20,000 generated names with the default call names and verbs.
    #[test]
    fn call_role_is_the_role_of_the_name_or_of_its_snake_case() {
        let calls = CallNames::default();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let name = name(&mut rng);
            if !name.bytes().any(|b| b.is_ascii_uppercase()) {
                assert_eq!(snake_case(&name), name);
            }
            let old = calls
                .role_of(&name)
                .or_else(|| calls.role_of(&snake_case(&name)));
            assert_eq!(call_role(&calls, &name), old, "{name:?}");
        }
    }

    /// Issue 32 item 1: the roles a visit remembers are [`call_role`]'s, for every name asked
    /// again and again in any order (20,000 lookups of 300 generated names), with the default
    /// call names and with configured ones.
    #[test]
    fn remembered_roles_are_call_roles() {
        let mut configured = CallNames::default();
        configured.subscribe.push("onceOnly".to_owned());
        configured.emit.push("Zon".to_owned());
        for calls in [CallNames::default(), configured] {
            let mut rng = Rng(0x2545_f491_4f6c_dd1d);
            let names: Vec<String> = (0..300).map(|_| name(&mut rng)).collect();
            let mut roles = CallRoles::default();
            let mut found = 0;
            for _ in 0..20_000 {
                let n = &names[rng.below(names.len())];
                let want = call_role(&calls, n);
                found += usize::from(want.is_some());
                assert_eq!(roles.of(&calls, n), want, "{n:?}");
            }
            assert!(found > 1_000, "{found} lookups have a role");
        }
    }
}
