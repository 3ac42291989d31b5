//! The rule text on hover: what `mirrorless explain ID` prints, for each finding under the
//! cursor.

use crate::diagnostics;
use crate::position::LineMap;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};
use mirrorless_lint::model::Finding;
use mirrorless_lint::rules;

/// The hover at `pos`: each finding whose range holds it, with its rule's page; `None` when
/// no finding is there.
pub fn hover(findings: &[Finding], map: &LineMap<'_>, pos: Position) -> Option<Hover> {
    let here: Vec<&Finding> = findings
        .iter()
        .filter(|f| {
            let r = diagnostics::range(f, map);
            r.start <= pos && pos <= r.end
        })
        .collect();
    let first = here.first()?;
    let mut text = String::new();
    let mut shown: Vec<&str> = Vec::new();
    for f in &here {
        text.push_str(&format!(
            "**{}** `{}`: {}\n\n",
            f.rule, f.rule_name, f.message
        ));
        text.push_str(&format!("help: {}\n\n", f.help));
    }
    for f in &here {
        if shown.contains(&f.rule) {
            continue;
        }
        shown.push(f.rule);
        if let Some(rule) = rules::rule(f.rule) {
            text.push_str("---\n\n");
            text.push_str(&rule.page());
            text.push('\n');
        }
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(diagnostics::range(first, map)),
    })
}
