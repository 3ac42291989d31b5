//! Issue #29 item 1 (d): a rewording of prose (a comment, a string) never makes a sentence name
//! one event twice. Where the sentence already names the durable twin (it contrasts the
//! removed mirror with it: upstream's "step/start is appended before agent/step-start is
//! emitted" became "step/start is appended before step/start is emitted"), the finding gets no
//! fix under any flags and its note says why; elsewhere the rename stays a suggestion. Checked
//! for every removed mirror, in comments and strings, the twin before or after the name.

use mirrorless_conformance::vocab::mirrors::REMOVED_MIRRORS;
use mirrorless_lint::config::Config;
use mirrorless_lint::engine::lint_document;
use std::path::Path;

/// The prose findings of `text` (a test file): whether each has a fix, and its note.
fn prose(text: &str) -> Vec<(bool, Option<String>)> {
    lint_document(Path::new("t.spec.ts"), text, &Config::default())
        .findings
        .into_iter()
        .filter(|f| matches!(f.rule, "ML006" | "ML007"))
        .map(|f| (f.fix.is_some(), f.note))
        .collect()
}

#[test]
fn a_sentence_naming_the_twin_too_is_reworded_by_hand() {
    for m in REMOVED_MIRRORS {
        let (name, twin) = (m.name, m.durable_twin);
        let contrasts = [
            format!("{twin} is appended before {name} is emitted"),
            format!("{name} fires after {twin}"),
            format!("the {name} mirror of {twin} is gone"),
        ];
        for sentence in &contrasts {
            for text in [
                format!("it('{sentence}', () => {{}})\n"),
                format!("// {sentence}.\nlet x = 1\n"),
                format!("// First this. Then {sentence}. And more.\nlet x = 1\n"),
            ] {
                let found = prose(&text);
                assert_eq!(found.len(), 1, "{text}: {found:?}");
                let (fixed, note) = &found[0];
                assert!(!fixed, "{text}");
                assert!(
                    note.as_deref()
                        .is_some_and(|n| n.contains(&format!("also names the durable `{twin}`"))),
                    "{text}: {note:?}"
                );
            }
        }
        // A sentence about the mirror as such (its removal, its replacement): renaming it
        // would make it false ("Removed: `assistant/chunk`."), whatever the document.
        let removals = [
            format!("Removed: `{name}`."),
            format!("We dropped {name} in July."),
            format!("{name} is deprecated"),
            format!("The loop no longer emits {name}."),
            format!("{name} was a mirror"),
        ];
        for sentence in &removals {
            for text in [
                format!("it('{sentence}', () => {{}})\n"),
                format!("// {sentence}\nlet x = 1\n"),
            ] {
                let found = prose(&text);
                assert_eq!(found.len(), 1, "{text}: {found:?}");
                let (fixed, note) = &found[0];
                assert!(!fixed, "{text}");
                assert!(
                    note.as_deref()
                        .is_some_and(|n| n.contains("speaks of the mirror itself")),
                    "{text}: {note:?}"
                );
            }
        }
        // The twin in another sentence, or only as part of a removed name: renamed as before.
        for text in [
            format!("// The {name} listener fires. Then {twin} is logged.\nlet x = 1\n"),
            format!("it('the {name} listener fires once', () => {{}})\n"),
        ] {
            let found = prose(&text);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            assert!(found[0].0, "{text}: {found:?}");
        }
    }
}
