//! The rule table: one module per rule (clippy/oxlint style), each with its ID, name,
//! default severity and documentation. IDs never change meaning; new front ends (TS/JS,
//! Markdown) report through the same rules.
//!
//! | ID | name | default | what |
//! |---|---|---|---|
//! | ML001 | subscribe | error | a subscription to a removed event |
//! | ML002 | emit | error | an emit of a removed event |
//! | ML003 | declare | error | a declaration of a removed event (const, typed event, serde rename, event-map entry) |
//! | ML004 | reference | error | any other use of a removed event name, directly or through a const/typed event |
//! | ML005 | embedded | error | a removed name quoted inside a larger string (plugin script, JSON) |
//! | ML006 | mention | warning | a removed name in prose inside a string (log message, test title, assertion text) |
//! | ML007 | comment | note | a removed name in a comment or doc comment |
//! | ML008 | suppression | warning | an unused or malformed `mirrorless: allow(…)` comment |
//! | ML009 | unparsed | note | a file the front end could not parse; it was scanned lexically |

use crate::model::{Role, Severity};

pub mod comment;
pub mod declare;
pub mod embedded;
pub mod emit;
pub mod mention;
pub mod reference;
pub mod subscribe;
pub mod suppression;
pub mod unparsed;

/// One lint rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Stable ID, e.g. `ML001`.
    pub id: &'static str,
    /// Stable kebab-case name, e.g. `subscribe`; accepted wherever an ID is.
    pub name: &'static str,
    /// Severity unless the configuration overrides it.
    pub default_severity: Severity,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// Markdown paragraphs: why it matters and what to do.
    pub explanation: &'static str,
    /// Markdown: which fixes the rule's findings carry and when they are safe to apply.
    pub fixes: &'static str,
    /// Rust code the rule flags.
    pub bad: &'static str,
    /// The same code after migration.
    pub good: &'static str,
}

/// Every rule, in ID order.
pub const RULES: [&Rule; 9] = [
    &subscribe::RULE,
    &emit::RULE,
    &declare::RULE,
    &reference::RULE,
    &embedded::RULE,
    &mention::RULE,
    &comment::RULE,
    &suppression::RULE,
    &unparsed::RULE,
];

/// The rule with this ID or name (case-insensitive).
pub fn rule(id_or_name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|r| r.id.eq_ignore_ascii_case(id_or_name) || r.name.eq_ignore_ascii_case(id_or_name))
}

/// The index page of `docs/rules/`.
pub fn index() -> String {
    let mut s = String::from(
        "# mirrorless lint rules\n\n<!-- Generated from lint/src/rules/ by `MIRRORLESS_BLESS=1 cargo test -p mirrorless-lint --test it rule_docs::`; do not edit. -->\n\n\
Rule IDs never change meaning. Every front end (Rust today; TS/JS and Markdown next) reports \
through these rules. `mirrorless explain ID` prints a page in the terminal.\n\n\
| ID | name | default | summary |\n|---|---|---|---|\n",
    );
    for r in RULES {
        s.push_str(&format!(
            "| [{id}]({id}.md) | `{}` | {} | {} |\n",
            r.name,
            r.default_severity,
            r.summary,
            id = r.id
        ));
    }
    s
}

/// The rule that reports occurrences with this role.
pub fn for_role(role: Role) -> &'static Rule {
    match role {
        Role::Subscribe => &subscribe::RULE,
        Role::Emit => &emit::RULE,
        Role::Declare => &declare::RULE,
        Role::Reference => &reference::RULE,
        Role::Embedded => &embedded::RULE,
        Role::Mention => &mention::RULE,
        Role::Comment => &comment::RULE,
    }
}

/// Where the rendered documentation page of a rule lives.
pub fn doc_url(rule: &Rule) -> String {
    format!(
        "{}/blob/main/docs/rules/{}.md",
        env!("CARGO_PKG_REPOSITORY"),
        rule.id
    )
}

impl Rule {
    /// The file `docs/rules/<ID>.md`: [`Rule::page`] with a note, under the title, that it is
    /// generated (a note for the repository's readers; an editor's hover or `mirrorless
    /// explain` would show it raw, so the page itself has none).
    pub fn doc_file(&self) -> String {
        let page = self.page();
        let (title, rest) = page.split_once("\n\n").unwrap_or((&page, ""));
        format!(
            "{title}\n\n<!-- Generated from lint/src/rules/{}.rs; do not edit. -->\n\n{rest}",
            self.name
        )
    }

    /// The Markdown page of this rule, as `mirrorless explain`, the language server's hover
    /// and SARIF show it.
    pub fn page(&self) -> String {
        let mut s = format!("# {} `{}`\n\n", self.id, self.name);
        s.push_str(&format!(
            "**Default severity: {}**\n\n{}\n\n",
            self.default_severity, self.summary
        ));
        s.push_str(self.explanation.trim());
        s.push_str("\n\n## Flagged\n\n```rust\n");
        s.push_str(self.bad.trim());
        s.push_str("\n```\n\n## Instead\n\n```rust\n");
        s.push_str(self.good.trim());
        s.push_str("\n```\n\n## Fixes\n\n");
        s.push_str(self.fixes.trim());
        s.push_str("\n\n## Configuration\n\n");
        s.push_str(&format!(
            "Change the severity in `mirrorless.toml`:\n\n```toml\n[lint.severity]\n{} = \"warning\" # or \"error\", \"note\", \"off\"\n```\n\n\
Suppress one site with a reason: `// mirrorless: allow({}) the reason`, on the line itself or \
alone on the line above. The removed events and their replacements are listed by \
`mirrorless explain MIRROR-1` … `MIRROR-6`.\n",
            self.name, self.id
        ));
        s
    }
}
