//! What the fixes read off an expression alone: a call's callee name and receiver, whether
//! evaluating it has no side effect. Every fix kind uses these;
//! they use no fix kind.

use oxc_ast::ast::*;

/// The name a call's callee ends in (`emit` for `ctx.emit`, `on` for `on`).
pub(super) fn callee_name<'b>(callee: &'b Expression<'_>) -> Option<&'b str> {
    match callee.get_inner_expression() {
        Expression::Identifier(id) => Some(id.name.as_str()),
        Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
        _ => None,
    }
}

/// The object a method is called on (`ctx` for `ctx.emit`).
pub(super) fn callee_object<'b, 'a>(callee: &'b Expression<'a>) -> Option<&'b Expression<'a>> {
    match callee.get_inner_expression() {
        Expression::StaticMemberExpression(m) => Some(&m.object),
        _ => None,
    }
}

/// Whether evaluating `e` can have no side effect (so deleting it keeps behaviour).
pub(super) fn pure(e: &Expression<'_>) -> bool {
    match e.get_inner_expression() {
        Expression::Identifier(_)
        | Expression::ThisExpression(_)
        | Expression::StringLiteral(_)
        | Expression::NumericLiteral(_)
        | Expression::BooleanLiteral(_)
        | Expression::NullLiteral(_)
        | Expression::BigIntLiteral(_)
        | Expression::ArrowFunctionExpression(_)
        | Expression::FunctionExpression(_) => true,
        Expression::StaticMemberExpression(m) => pure(&m.object),
        Expression::TemplateLiteral(t) => t.expressions.iter().all(pure),
        Expression::ArrayExpression(a) => a
            .elements
            .iter()
            .all(|el| el.as_expression().is_some_and(pure)),
        Expression::ObjectExpression(o) => o.properties.iter().all(|p| match p {
            ObjectPropertyKind::ObjectProperty(p) => !p.computed && pure(&p.value),
            ObjectPropertyKind::SpreadProperty(_) => false,
        }),
        _ => false,
    }
}
