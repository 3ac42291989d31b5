//! Moving a removed event's handler into an existing `session/event` listener.

use super::super::listeners::{MergeTarget, Returns};
use super::handler::{Body, Params};
use super::uses::{AgentRef, View};
use super::{Fixer, range};
use crate::model::{Applicability, Edit, Fix};
use oxc_ast_visit::Visit;
use oxc_span::GetSpan;
use std::ops::Range;

/// What [`Fixer::merged`] needs of the subscription being migrated.
pub(super) struct Merge<'x> {
    pub(super) params: &'x Params,
    pub(super) uses: &'x View<'x>,
    pub(super) twin: &'x str,
    pub(super) quote: char,
    /// The handler's uses of the agent read as the listener's session.
    pub(super) agent_refs: &'x [AgentRef],
    pub(super) needs_agent: bool,
    pub(super) receiver: &'x str,
}

impl Fixer<'_, '_, '_> {
    /// The suggestion that moves a removed event's handler into the existing `session/event`
    /// listener `t` (as `if (event.type === twin) { … }` after its last statement) and deletes
    /// the subscription statement `stmt`; `None` when that would change what the code reads
    /// (a name the listener shadows or its parameters) or where it returns.
    pub(super) fn merged(
        &self,
        t: &MergeTarget,
        stmt: Range<usize>,
        body: &Body<'_, '_>,
        m: &Merge<'_>,
    ) -> Option<Fix> {
        let u = m.uses;
        if u.names(&t.session) || u.names(&t.event) {
            return None;
        }
        if t.bindings.iter().any(|b| u.count(b) > 0) {
            return None;
        }
        let nl = self.newline;
        let (s, e, q, twin) = (&t.session, &t.event, m.quote, m.twin);
        // The handler's code, `agent.session` spelled as the listener's session.
        let (code, code_start) = match body {
            Body::Block(b) => {
                let mut returns = Returns::default();
                returns.visit_function_body(b);
                if returns.0 {
                    return None;
                }
                let first = b.statements.first()?.span().start as usize;
                let last = b.statements.last()?.span().end as usize;
                (first..last, first)
            }
            Body::Expr(x) => {
                let r = range(x.span());
                (r.clone(), r.start)
            }
        };
        let mut text = String::new();
        let mut at = code.start;
        for r in m.agent_refs {
            text.push_str(&self.src[at..r.range().start]);
            text.push_str(&r.text(self.src, s));
            at = r.range().end;
        }
        text.push_str(&self.src[at..code.end]);
        if matches!(body, Body::Expr(_)) {
            text.push(';');
        }
        let depth = if m.needs_agent { 2 } else { 1 };
        let inner = format!("{}{}", t.indent, "  ".repeat(depth));
        let old_indent = self.indent_at(code_start);
        let code_lines: Vec<String> = text
            .split('\n')
            .enumerate()
            .map(|(i, line)| {
                let line = line.trim_end_matches('\r');
                if i == 0 {
                    format!("{inner}{line}")
                } else if let Some(rest) = line.strip_prefix(old_indent) {
                    format!("{inner}{rest}")
                } else {
                    line.to_owned()
                }
            })
            .collect();

        let ind = &t.indent;
        let mut out = format!("{nl}{ind}if ({e}.type === {q}{twin}{q}) {{");
        let p = m.params;
        if !p.fields.is_empty() {
            let cast = match &p.types.fields {
                Some(types) => format!(" as {{ {} }}", types.join("; ")),
                None => String::new(),
            };
            out.push_str(&format!(
                "{nl}{ind}  const {{ {} }} = {e}.data{cast}{}",
                p.fields.join(", "),
                self.semi()
            ));
        }
        let agent = p.agent.as_ref().filter(|_| m.needs_agent);
        if let Some(a) = agent {
            // Without the file's own map the standalone rewrite builds one: no merge.
            let lookup = self
                .agent_map()
                .filter(|map| map.visible_at(t.insert_at))?
                .lookup(s);
            out.push_str(&format!("{nl}{ind}  const {a} = {lookup}{}", self.semi()));
            out.push_str(&format!("{nl}{ind}  if ({a}) {{"));
        }
        for line in &code_lines {
            out.push_str(nl);
            out.push_str(line);
        }
        if agent.is_some() {
            out.push_str(&format!("{nl}{ind}  }}"));
        }
        out.push_str(&format!("{nl}{ind}}}"));

        let mut gone = self.removal(self.with_leading_comments(stmt));
        // The blank line that separated the statement from the one before goes with it when
        // nothing follows it in its block.
        let after = self.src[gone.end..].trim_start_matches([' ', '\t']);
        if after.starts_with('}') || after.starts_with(['\n', '\r']) {
            let before = &self.src[..gone.start];
            for blank in ["\r\n", "\n"] {
                if before.ends_with(&format!("{blank}{blank}")) {
                    gone.start -= blank.len();
                    break;
                }
            }
        }
        let mut edits = vec![
            Edit::new(gone.start, gone.end, ""),
            Edit::new(t.insert_at, t.insert_at, out),
        ];
        edits.sort_by_key(|e| (e.start, e.end));
        Some(Fix::new(
            Applicability::Suggestion,
            format!(
                "merge into the existing `session/event` listener on `{}`, filtering `{twin}` there (the code then shares that listener's order and error handling: check it)",
                m.receiver
            ),
            edits,
        ))
    }
}
