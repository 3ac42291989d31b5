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
    prose_in("t.spec.ts", text)
}

/// The prose findings of `text` read as the file `path`.
fn prose_in(path: &str, text: &str) -> Vec<(bool, Option<String>)> {
    lint_document(Path::new(path), text, &Config::default())
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
        // A passage about the removal, the name in another of its sentences, or the mirror's
        // own signature: reworded by hand too.
        for text in [
            format!("// `{name}`: not touched here. The mirror was removed later.\nlet x = 1\n"),
            format!("// Live emit: `{name}(agent, turn)`, same data.\nlet x = 1\n"),
        ] {
            let found = prose(&text);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            assert!(!found[0].0, "{text}: {found:?}");
        }
        // How far a passage reaches: the lines of one comment (up to a comment's blank line),
        // a Markdown paragraph; a string in code is its own sentence, whatever the next line.
        for text in [
            format!("// The loop used to emit this.\n// A {name} listener hears it.\nlet x = 1\n"),
            format!("/**\n * Removed in July.\n * A {name} listener hears it.\n */\nlet x = 1\n"),
        ] {
            let found = prose(&text);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            assert!(!found[0].0, "{text}: {found:?}");
        }
        for text in [
            format!(
                "// The loop used to emit this.\n//\n// A {name} listener hears it.\nlet x = 1\n"
            ),
            format!(
                "// The loop used to emit this.\nlet y = 2\n// A {name} listener hears it.\nlet x = 1\n"
            ),
            format!("log('a {name} listener failed')\n// migrating the rest\nlet x = 1\n"),
            format!("// migrating the rest\nlog('a {name} listener failed')\n"),
        ] {
            let found: Vec<_> = prose(&text)
                .into_iter()
                .filter(|(_, note)| note.as_deref().is_none_or(|n| !n.contains("migrat")))
                .collect();
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            assert!(found[0].0, "{text}: {found:?}");
        }
        let note = format!("# Notes\n\nThe loop used to emit it.\nA {name} listener hears it.\n");
        let found = prose_in("notes.md", &note);
        assert_eq!(found.len(), 1, "{note}: {found:?}");
        assert!(!found[0].0, "{note}: {found:?}");
        let note = format!("# Notes\n\nThe loop used to emit it.\n\nA {name} listener hears it.\n");
        let found = prose_in("notes.md", &note);
        assert_eq!(found.len(), 1, "{note}: {found:?}");
        assert!(found[0].0, "{note}: {found:?}");
        // Another list item or table row is another passage, even with no blank line between.
        for note in [
            format!("- The loop used to emit it.\n- A {name} listener hears it.\n"),
            format!("1. Removed in July.\n2. A {name} listener hears it.\n"),
            format!("| Removed | x |\n|---|---|\n| A {name} listener | y |\n"),
        ] {
            let found = prose_in("notes.md", &note);
            assert_eq!(found.len(), 1, "{note}: {found:?}");
            assert!(found[0].0, "{note}: {found:?}");
        }
        let note = format!("- The loop used to emit it,\n  and a {name} listener heard it.\n");
        let found = prose_in("notes.md", &note);
        assert_eq!(found.len(), 1, "{note}: {found:?}");
        assert!(!found[0].0, "{note}: {found:?}");
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
