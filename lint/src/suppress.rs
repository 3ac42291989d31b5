//! Inline suppressions: `// mirrorless: allow(RULE[, RULE…]) reason`. Language-neutral: a
//! front end only hands over the comments that contain `mirrorless:`.

use crate::rules::{self, Rule};

/// One parsed suppression comment.
#[derive(Debug, Clone)]
pub struct Suppression {
    /// Line of the comment (1-based).
    pub comment_line: usize,
    /// Byte offset of the comment.
    pub start: usize,
    /// The line whose findings it suppresses.
    pub target_line: usize,
    /// The rules it allows, each optionally for one event only (`ML001[agent/turn-start]`).
    pub rules: Vec<(&'static Rule, Option<String>)>,
    /// What is wrong with it, if anything (then it suppresses nothing).
    pub problem: Option<String>,
    /// Whether it suppressed at least one finding.
    pub used: bool,
}

/// Parses the suppression in `text` (a comment's contents). `None` if the comment is not a
/// suppression at all.
pub fn parse(
    text: &str,
    start: usize,
    comment_line: usize,
    alone_on_line: bool,
    next_code_line: usize,
) -> Option<Suppression> {
    let at = text.find("mirrorless:")?;
    let rest = text[at + "mirrorless:".len()..].trim_start();
    let target_line = if alone_on_line {
        next_code_line
    } else {
        comment_line
    };
    let mut s = Suppression {
        comment_line,
        start,
        target_line,
        rules: Vec::new(),
        problem: None,
        used: false,
    };
    let Some(body) = rest.strip_prefix("allow(") else {
        s.problem = Some("expected `mirrorless: allow(RULE) reason`".to_owned());
        return Some(s);
    };
    let Some(close) = body.find(')') else {
        s.problem = Some("unclosed `allow(`".to_owned());
        return Some(s);
    };
    for item in body[..close]
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        let (name, event) = match item.split_once('[') {
            Some((n, rest)) => match rest.strip_suffix(']') {
                Some(ev) => (n.trim(), Some(ev.trim().to_owned())),
                None => {
                    s.problem = Some(format!("unclosed `[` in `{item}`"));
                    return Some(s);
                }
            },
            None => (item, None),
        };
        match rules::rule(name) {
            Some(r) => s.rules.push((r, event)),
            None => {
                s.problem = Some(format!("unknown rule `{name}`"));
                return Some(s);
            }
        }
    }
    if s.rules.is_empty() {
        s.problem = Some("`allow()` names no rule".to_owned());
        return Some(s);
    }
    let reason = body[close + 1..]
        .trim()
        .trim_start_matches("--")
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("*/")
        .trim();
    if reason.is_empty() {
        s.problem = Some(
            "a suppression needs a reason after `allow(…)`; without one it suppresses nothing"
                .to_owned(),
        );
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules_reason_and_target() {
        let s = parse(
            " mirrorless: allow(ML001, emit) bridge until v2",
            0,
            3,
            false,
            4,
        )
        .unwrap();
        assert_eq!(
            s.rules.iter().map(|r| r.0.id).collect::<Vec<_>>(),
            ["ML001", "ML002"]
        );
        assert_eq!((s.target_line, s.problem), (3, None));
        let s = parse(
            " mirrorless: allow(ML001[agent/turn-end]) bridge",
            0,
            3,
            false,
            4,
        )
        .unwrap();
        assert_eq!(s.rules[0].1.as_deref(), Some("agent/turn-end"));
        let s = parse(" mirrorless: allow(ML001[agent/x) y", 0, 1, false, 2).unwrap();
        assert!(s.problem.is_some());
        let s = parse(" mirrorless: allow(ML001)", 0, 3, true, 5).unwrap();
        assert_eq!(s.target_line, 5);
        assert!(s.problem.unwrap().contains("reason"));
        let s = parse(" mirrorless: allow(ML042) x", 0, 1, true, 2).unwrap();
        assert!(s.problem.unwrap().contains("ML042"));
        assert!(parse(" plain comment", 0, 1, true, 2).is_none());
    }
}
