//! When a typed Rust subscription gets its suggestion, by minimal pairs: one source whose
//! typed subscription gets the `session/event` rewrite, and variants that each change one
//! thing ML001's page names as a reason for no fix, and get none (the finding stays). The
//! rewritten text itself is pinned by the fix fixtures `rust_typed*` and type-checked by
//! `rust_fix_compiles.rs`.

use mirrorless_lint::config::Config;
use mirrorless_lint::lint_document;
use mirrorless_lint::model::Applicability;
use std::path::Path;

const BASE: &str = r#"use host::{Bus, Event};

pub struct StepEnd {
    pub turn: u64,
    pub step: u64,
}

impl Event for StepEnd {
    const NAME: &'static str = "agent/step-end";
}

fn close_step(ev: &StepEnd) {
    show(ev.turn);
}

pub fn wire(bus: &Bus) {
    bus.on::<StepEnd>(|ev: &StepEnd| show(ev.turn));
}
"#;

/// The ML001 findings of `src` and whether each has a fix, and that it is a suggestion.
fn subscription_fixes(src: &str) -> Vec<bool> {
    let config = Config {
        root: ".".into(),
        ..Config::default()
    };
    let report = lint_document(Path::new("src/lib.rs"), src, &config);
    let found: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == "ML001")
        .collect();
    assert!(!found.is_empty(), "no ML001 finding in:\n{src}");
    found
        .iter()
        .map(|f| {
            if let Some(fix) = &f.fix {
                assert_eq!(
                    fix.applicability,
                    Applicability::Suggestion,
                    "{}",
                    fix.message
                );
                assert!(fix.message.contains("filter `step/end`"), "{}", fix.message);
                assert!(fix.message.contains("SessionEvent"), "{}", fix.message);
            }
            f.fix.is_some()
        })
        .collect()
}

fn variant(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    BASE.replacen(from, to, 1)
}

const SUBSCRIPTION: &str = "bus.on::<StepEnd>(|ev: &StepEnd| show(ev.turn));";

#[test]
fn the_typed_subscriptions_that_get_the_suggestion() {
    let fixed = [
        BASE.to_owned(),
        // Untyped after the turbofish; a path handler; `subscribe::<E, _>`; a name taken from
        // the typed event with a closure, or with a function of the file taking the event.
        variant(SUBSCRIPTION, "bus.on::<StepEnd>(|ev| show(ev.turn));"),
        variant(SUBSCRIPTION, "bus.on::<StepEnd>(close_step);"),
        variant(SUBSCRIPTION, "bus.subscribe::<StepEnd, _>(close_step);"),
        variant(
            SUBSCRIPTION,
            "bus.listen(StepEnd::NAME, |ev: &StepEnd| show(ev.turn));",
        ),
        variant(SUBSCRIPTION, "bus.listen(StepEnd::NAME, close_step);"),
        // The value unused: no field is read, so none needs a counterpart.
        variant(SUBSCRIPTION, "bus.on::<StepEnd>(|_| redraw());"),
        // `SessionEvent` already in scope, with no receiver type to import it beside.
        variant(
            "use host::{Bus, Event};",
            "use host::{Event, SessionEvent};",
        ),
    ];
    for src in &fixed {
        assert_eq!(subscription_fixes(src), [true], "{src}");
    }
}

#[test]
fn each_reason_for_no_fix_alone_withholds_it() {
    let unfixed = [
        // A field with no durable counterpart.
        variant(
            "    pub step: u64,\n",
            "    pub step: u64,\n    pub at: u64,\n",
        ),
        // A field of a generic type.
        variant("    pub step: u64,\n", "    pub step: Vec<u64>,\n"),
        // A tuple struct.
        variant(
            "pub struct StepEnd {\n    pub turn: u64,\n    pub step: u64,\n}",
            "pub struct StepEnd(pub u64, pub u64);",
        ),
        // A generic struct.
        variant("pub struct StepEnd {", "pub struct StepEnd<T = u64> {"),
        // The struct is not in the run: only its impl is.
        variant(
            "pub struct StepEnd {\n    pub turn: u64,\n    pub step: u64,\n}",
            "pub use elsewhere::StepEnd;",
        ),
        // `SessionEvent` cannot be named: the receiver's type is not imported.
        variant("use host::{Bus, Event};", "use host::Event;"),
        // The handler: a call, a closure of two parameters, typed with another type, async.
        variant(SUBSCRIPTION, "bus.on::<StepEnd>(handlers.step_end());"),
        variant(
            SUBSCRIPTION,
            "bus.on::<StepEnd>(|ev: &StepEnd, n: u64| show(n));",
        ),
        variant(
            SUBSCRIPTION,
            "bus.on::<StepEnd>(|ev: &Other| show(ev.turn));",
        ),
        variant(
            SUBSCRIPTION,
            "bus.on::<StepEnd>(async |ev: &StepEnd| show(ev.turn));",
        ),
        // A concrete handler type in the turbofish; a listener registered once.
        variant(SUBSCRIPTION, "bus.subscribe::<StepEnd, Closer>(closer);"),
        variant(
            SUBSCRIPTION,
            "bus.once::<StepEnd>(|ev: &StepEnd| show(ev.turn));",
        ),
        // A name taken from the typed event: an untyped closure, a function not of this file.
        variant(
            SUBSCRIPTION,
            "bus.listen(StepEnd::NAME, |ev| show(ev.turn));",
        ),
        variant(SUBSCRIPTION, "bus.listen(StepEnd::NAME, elsewhere::close);"),
    ];
    for src in &unfixed {
        assert_eq!(subscription_fixes(src), [false], "{src}");
    }
}

/// What a typed subscription's rewrite leaves: the struct, still built by the handler, and its
/// event impl, which nothing needs any more.
const LEFTOVER: &str = r#"use host::{Bus, Event, SessionEvent};

struct StepEnd {
    turn: u64,
}

impl Event for StepEnd {
    const NAME: &'static str = "agent/step-end";
}

fn wire(bus: &Bus) {
    bus.on::<SessionEvent>(|event: &SessionEvent| {
        let ev = &StepEnd { turn: 1 };
        show(ev.turn);
    });
}
"#;

/// The ML003 fix of the leftover impl in `src`: its applicability and edited text.
fn leftover_fix(src: &str) -> Option<(Applicability, String)> {
    let config = Config {
        root: ".".into(),
        ..Config::default()
    };
    let report = lint_document(Path::new("src/lib.rs"), src, &config);
    let f = report.findings.iter().find(|f| f.rule == "ML003")?;
    let fix = f.fix.as_ref()?;
    let mut text = src.to_owned();
    for e in fix.edits.iter().rev() {
        text.replace_range(e.start..e.end, &e.replacement);
    }
    Some((fix.applicability, text))
}

#[test]
fn the_leftover_impl_of_a_rewritten_typed_event_is_deleted_when_nothing_needs_it() {
    let (applicability, text) = leftover_fix(LEFTOVER).expect("a fix");
    assert_eq!(applicability, Applicability::MachineApplicable);
    assert!(!text.contains("impl Event"), "{text}");
    assert!(text.contains("struct StepEnd {"), "{text}");
    assert!(text.contains("use host::{Bus, SessionEvent};"), "{text}");
    let variant = |from: &str, to: &str| {
        assert!(LEFTOVER.contains(from), "{from}");
        LEFTOVER.replacen(from, to, 1)
    };
    // A value passed on, a generic bound on the trait, a public struct: only a suggestion.
    for src in [
        variant("show(ev.turn)", "show(ev)"),
        variant("fn wire(", "fn g<E: Event>(_: &E) {}\nfn wire("),
        variant("struct StepEnd {", "pub struct StepEnd {"),
        variant(
            "let ev = &StepEnd { turn: 1 };",
            "let ev: &StepEnd = &StepEnd { turn: 1 };",
        ),
    ] {
        let got = leftover_fix(&src).map(|(a, _)| a);
        assert_eq!(got, Some(Applicability::Suggestion), "{src}");
    }
    // Named through its path or as a generic argument, it may need the impl: no fix.
    for src in [
        variant("show(ev.turn);", "show(ev.turn); let _ = StepEnd::NAME;"),
        variant(
            "show(ev.turn);",
            "show(ev.turn); bus.on::<StepEnd>(|_| {});",
        ),
    ] {
        assert_eq!(leftover_fix(&src).map(|(a, _)| a), None, "{src}");
    }
    // Another event implementing the trait is not a use of it; the import stays for it.
    let two = format!(
        "{LEFTOVER}\nstruct Other;\nimpl Event for Other {{\n    const NAME: &'static str = \"x/other\";\n}}\n"
    );
    let (applicability, text) = leftover_fix(&two).expect("a fix");
    assert_eq!(applicability, Applicability::MachineApplicable);
    assert!(
        text.contains("use host::{Bus, Event, SessionEvent};"),
        "{text}"
    );
}
