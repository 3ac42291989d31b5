//! The fixes leave TypeScript that still type-checks, by the real compiler: every `.ts` input
//! under `fixtures/lint/fix/` and its expected outputs (`X.fixed.ts`, `X.unsafe.ts`, which
//! `fix_fixtures.rs` pins to what `--fix` and `--fix --unsafe-fixes` produce) are checked with
//! `tsc --noEmit --strict --noUnusedLocals` against the harness declarations in
//! `tests/js-tools/` (so an import a fix leaves unused fails it), twice:
//! - with a typed context (`harness-typed.d.ts`: `ctx.on` typed by an event map, so listener
//!   parameters are contextually typed), and
//! - with `ctx: any` (`harness-any.d.ts`: no contextual typing, so only the annotations the code
//!   carries type a listener, and `noImplicitAny` rejects the rest), and
//! - with a host that types `session/event`'s `data` as `unknown` (`harness-unknown.d.ts`: the
//!   mirrors' handlers are contextually typed, a rewrite destructuring `event.data` uncast is
//!   not).
//!
//! Properties:
//! - each output of an input that type-checked type-checks too (unused locals aside); with the
//!   `unknown` harness only the machine-applicable output (`X.fixed.ts`) is held to it: a
//!   suggestion that destructures `event.data` uncast says it needs a host typing `data`;
//! - no output of any input declares a local (an import above all) that nothing uses unless the
//!   input already did: a fix that deletes the only code naming an import removes the import.
//!
//! tsc is the pinned npm `typescript` that `tests/js-tools/setup.sh` installs. Without it the test is
//! skipped (and says so); `MIRRORLESS_REQUIRE_TSC=1` (set by `.ci/run` once it is installed)
//! makes a missing tsc a failure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tsc_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/js-tools")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/lint/fix")
}

/// The installed compiler, or `None` (after saying why) when the test is to be skipped.
fn tsc() -> Option<PathBuf> {
    let bin = tsc_dir().join("node_modules/.bin/tsc");
    if bin.is_file() {
        return Some(bin);
    }
    let required = std::env::var("MIRRORLESS_REQUIRE_TSC").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "MIRRORLESS_REQUIRE_TSC=1 but {} is missing: run tests/js-tools/setup.sh",
        bin.display()
    );
    eprintln!(
        "SKIPPED: {} is missing (run tests/js-tools/setup.sh): the fix fixtures were NOT type-checked",
        bin.display()
    );
    None
}

/// What tsc says about one file.
#[derive(Debug, Default)]
struct Diagnostics {
    /// Every diagnostic but the unused-local ones, as tsc prints them.
    errors: String,
    /// The locals `--noUnusedLocals` reports as unused: the name it quotes, or the text of the
    /// line it points at when it names none (`All imports in import declaration are unused`).
    unused: BTreeSet<String>,
}

/// The codes `--noUnusedLocals` reports: "'X' is declared but its value is never read",
/// "… but never used", "All imports in import declaration are unused", "All destructured
/// elements are unused", "All variables are unused", "All type parameters are unused".
const UNUSED: &[&str] = &["TS6133", "TS6192", "TS6196", "TS6198", "TS6199", "TS6205"];

/// The unused local a `FILE(LINE,COL): error TS6133: 'X' is …` line names (see [`Diagnostics`]).
fn unused_local(base: &Path, file: &Path, line: &str) -> String {
    let message = line.split_once("): error ").map_or(line, |(_, m)| m);
    if let Some((_, rest)) = message.split_once('\'')
        && let Some((name, _)) = rest.split_once('\'')
    {
        return name.to_owned();
    }
    let number: usize = line
        .split_once('(')
        .and_then(|(_, r)| r.split_once(','))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or(0);
    let text = std::fs::read_to_string(base.join(file)).unwrap_or_default();
    text.lines()
        .nth(number.saturating_sub(1))
        .unwrap_or(message)
        .trim()
        .to_owned()
}

/// tsc's diagnostics per file for `files` (relative to `base`) with the harness
/// `variant` (`typed` or `any`), with `--noUnusedLocals`; a file that type-checks has none. One
/// program holds all of them (one compiler start, not one per file), each file a module of its
/// own (`--moduleDetection force`, scripts too), so none sees another's declarations.
fn check(
    tsc: &Path,
    variant: &str,
    base: &Path,
    files: &[PathBuf],
) -> BTreeMap<PathBuf, Diagnostics> {
    let dir = tsc_dir();
    let out = Command::new(tsc)
        .current_dir(base)
        .args([
            "--noEmit",
            "--strict",
            "--noUnusedLocals",
            "--pretty",
            "false",
            "--target",
            "esnext",
            "--module",
            "esnext",
            "--moduleResolution",
            "bundler",
            "--moduleDetection",
            "force",
            "--types",
            "",
        ])
        .arg(dir.join("harness.d.ts"))
        .arg(dir.join(format!("harness-{variant}.d.ts")))
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tsc.display()));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // `FILE(LINE,COL): error TS…`, continuation lines indented.
    let mut by_file: BTreeMap<PathBuf, Diagnostics> = BTreeMap::new();
    let mut current: Option<(PathBuf, bool)> = None;
    let mut foreign = false;
    for line in text.lines() {
        if !line.starts_with(' ')
            && let Some((file, _)) = line.split_once('(')
        {
            let f = files.iter().find(|f| Path::new(file) == f.as_path());
            // An output may import a sibling input by its module path (`./ui` from
            // `ui.unsafe.spec.ts`): tsc checks that input too, but it is judged in the inputs' run.
            let sibling_input =
                f.is_none() && base.join(file).is_file() && !is_expectation(Path::new(file));
            assert!(
                f.is_some() || sibling_input,
                "tsc ({variant}) reports a file that is not a fixture: {line}\n{text}"
            );
            foreign |= sibling_input;
            let unused = UNUSED.iter().any(|c| line.contains(&format!("error {c}:")));
            current = f.map(|f| (f.clone(), unused));
            if let Some((f, true)) = &current {
                let local = unused_local(base, f, line);
                by_file.entry(f.clone()).or_default().unused.insert(local);
            }
        }
        if let Some((f, false)) = &current {
            let entry = by_file.entry(f.clone()).or_default();
            entry.errors.push_str(line);
            entry.errors.push('\n');
        }
    }
    // A failing exit with diagnostics is "does not type-check"; anything else is a broken run.
    assert!(
        out.status.success() == (by_file.is_empty() && !foreign),
        "{} ({variant}) exited {:?} without diagnostics a file owns:\n{text}",
        tsc.display(),
        out.status
    );
    by_file
}

fn is_expectation(p: &Path) -> bool {
    let name = p.file_name().unwrap_or_default().to_string_lossy();
    name.contains(".fixed.") || name.contains(".unsafe.")
}

/// The outputs each harness variant holds to the property: with the `unknown` host, the
/// machine-applicable ones only.
fn kinds(variant: &str) -> &'static [&'static str] {
    match variant {
        "unknown" => &["fixed"],
        _ => &["fixed", "unsafe"],
    }
}

/// `X.ts` → its existing `X.KIND.ts` of `kinds` (`X.spec.ts` → `X.KIND.spec.ts`, as
/// `fix_fixtures.rs` names them).
fn outputs(input: &Path, kinds: &[&str]) -> Vec<PathBuf> {
    let name = input.file_name().unwrap_or_default().to_string_lossy();
    let (stem, ext) = name.split_once('.').unwrap_or((&name, "ts"));
    kinds
        .iter()
        .map(|kind| input.with_file_name(format!("{stem}.{kind}.{ext}")))
        .filter(|p| p.is_file())
        .collect()
}

#[test]
fn fixed_typescript_type_checks_wherever_the_original_did() {
    let Some(tsc) = tsc() else { return };
    let mut inputs: Vec<PathBuf> = walkdir::WalkDir::new(fixtures())
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e == "ts") && !is_expectation(p))
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 8,
        "TypeScript fix fixtures missing: {inputs:?}"
    );

    let relative = |p: &Path| p.strip_prefix(fixtures()).unwrap_or(p).to_path_buf();
    let inputs: Vec<PathBuf> = inputs.iter().map(|p| relative(p)).collect();
    let mut failures = Vec::new();
    for variant in ["typed", "any", "unknown"] {
        let outputs: Vec<PathBuf> = inputs
            .iter()
            .flat_map(|i| outputs(&fixtures().join(i), kinds(variant)))
            .map(|p| relative(&p))
            .collect();
        let before = check(&tsc, variant, &fixtures(), &inputs);
        let after = check(&tsc, variant, &fixtures(), &outputs);
        let mut checked = Vec::new();
        let none = Diagnostics::default();
        for input in &inputs {
            let was = before.get(input).unwrap_or(&none);
            for output in self::outputs(&fixtures().join(input), kinds(variant)) {
                let is = after.get(&relative(&output)).unwrap_or(&none);
                let new: Vec<&String> = is.unused.difference(&was.unused).collect();
                if !new.is_empty() {
                    failures.push(format!(
                        "{}: its fix {} leaves unused (with the {variant} harness) {new:?}",
                        input.display(),
                        output.display()
                    ));
                }
                if was.errors.is_empty() && !is.errors.is_empty() {
                    failures.push(format!(
                        "{} type-checks with the {variant} harness, but its fix {} does not:\n{}",
                        input.display(),
                        output.display(),
                        is.errors
                    ));
                }
            }
            if !was.errors.is_empty() {
                eprintln!(
                    "{} does not type-check with the {variant} harness (so its fixes need not):\n{}",
                    input.display(),
                    was.errors
                );
                continue;
            }
            checked.push(input.file_name().unwrap_or_default().to_owned());
        }
        // The property must not hold vacuously: these inputs type-check by design.
        let want: &[&str] = match variant {
            "typed" => &[
                "subscribe_positional.ts",
                "subscribe_payload.ts",
                "subscribe_agent.ts",
                "subscribe_annotated.ts",
                "emit_beside_append.ts",
                "declaration_merging.ts",
                "bom_crlf.ts",
                "plugin.ts",
                "unused_declarations.ts",
                "subscribe_merge.ts",
                "subscribe_agent_map.ts",
                "imports_left_unused.ts",
                "imports_only_module.ts",
                "subscribe_data_unknown.ts",
                "subscribe_data_typed.ts",
                "observe_log.spec.ts",
                "subscribe_agent_compared.ts",
                "subscribe_throws.ts",
            ],
            "unknown" => &[
                "subscribe_positional.ts",
                "subscribe_payload.ts",
                "subscribe_annotated.ts",
                "subscribe_data_unknown.ts",
                "unused_declarations.ts",
                "bom_crlf.ts",
                "plugin.ts",
            ],
            _ => &[
                "subscribe_annotated.ts",
                "emit_beside_append.ts",
                "imports_left_unused.ts",
            ],
        };
        for name in want {
            assert!(
                checked.iter().any(|c| c == *name),
                "{name} should type-check with the {variant} harness (the property would hold vacuously)"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `any` harness takes contextual typing away: the unannotated rewrite the fixes made
/// before they kept annotations is rejected, so the property above can fail.
#[test]
fn an_unannotated_rewrite_fails_without_contextual_typing() {
    let Some(tsc) = tsc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("unannotated.ts");
    let rel = PathBuf::from("unannotated.ts");
    std::fs::write(
        &file,
        "export function apply(ctx: Context, ui: Ui) {\n  \
         ctx.on('session/event', (session, event) => {\n    \
         if (event.type !== 'turn/start') return;\n    \
         const { turn } = event.data;\n    \
         ui.spinnerOn(session.id, turn);\n  });\n}\n",
    )
    .unwrap();
    let files = [rel.clone()];
    assert!(check(&tsc, "typed", dir.path(), &files).is_empty());
    let errors = check(&tsc, "any", dir.path(), &files);
    let errors = &errors
        .get(&rel)
        .expect("noImplicitAny must reject it")
        .errors;
    assert!(errors.contains("TS7006"), "{errors}");
}

/// The reason the `unknown` harness exempts suggestions, and the property above can fail with
/// it: the suggestion that destructures `event.data` uncast (`subscribe_data_unknown`) is
/// rejected where the host types `data` as `unknown`, while its machine-applicable fixes are not.
#[test]
fn an_uncast_destructuring_fails_where_data_is_unknown() {
    let Some(tsc) = tsc() else { return };
    let name = |kind: &str| PathBuf::from(format!("subscribe_data_unknown{kind}.ts"));
    let files = [name(""), name(".fixed"), name(".unsafe")];
    let found = check(&tsc, "unknown", &fixtures(), &files);
    for clean in &files[..2] {
        assert!(
            found.get(clean).is_none_or(|d| d.errors.is_empty()),
            "{}: {:?}",
            clean.display(),
            found.get(clean)
        );
    }
    let unsafe_errors = found
        .get(&files[2])
        .map(|d| d.errors.as_str())
        .unwrap_or("");
    assert!(unsafe_errors.contains("TS2339"), "{unsafe_errors}");
    assert!(check(&tsc, "typed", &fixtures(), &files[2..]).is_empty());
}

/// `--noUnusedLocals` rejects the import a deletion used to leave behind (the event-map entry
/// gone, its payload type still imported), so the property above can fail on imports too.
#[test]
fn an_import_left_unused_fails_the_check() {
    let Some(tsc) = tsc() else { return };
    let dir = tempfile::tempdir().unwrap();
    let rel = PathBuf::from("left_behind.ts");
    std::fs::write(
        dir.path().join(&rel),
        "import type { LoopAgent, TurnEnd } from 'agent-host';\n\
         declare module 'cordis' {\n  \
         interface Events {\n    \
         'agent/status'(agent: LoopAgent, status: Status): void;\n  }\n}\n",
    )
    .unwrap();
    let found = check(&tsc, "typed", dir.path(), std::slice::from_ref(&rel));
    let found = found.get(&rel).expect("noUnusedLocals must reject it");
    assert!(found.errors.is_empty(), "{}", found.errors);
    assert_eq!(found.unused, BTreeSet::from(["TurnEnd".to_owned()]));
}
