//! LIVE-9 on the real upstream loop: the recorded 2026-08 runs of
//! `fixtures/check/2026-08/upstream/` (every live dispatch with its log) repeat no durable
//! event, and the same runs with a renamed mirror of every durable twin put back — by object
//! or positional payload, fired before or after the append — are reported once per mirror.

use mirrorless_conformance::Profile;
use mirrorless_conformance::check::check_live_with_log;
use mirrorless_conformance::vocab::durable::SessionEvent;
use mirrorless_conformance::vocab::live::LiveEmit;
use mirrorless_conformance::vocab::mirrors::REMOVED_MIRRORS;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn runs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/check/2026-08/upstream");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("live.jsonl").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 30, "the upstream recordings are there");
    dirs
}

fn lines<T: serde::de::DeserializeOwned>(path: &Path) -> Vec<T> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display())))
        .collect()
}

/// The recorded log (header dropped) and live trace of one run.
fn recorded(dir: &Path) -> (Vec<SessionEvent>, Vec<LiveEmit>) {
    let log: Vec<SessionEvent> = lines::<SessionEvent>(&dir.join("session.jsonl"))
        .into_iter()
        .filter(|e| e.kind != "session")
        .collect();
    (log, lines(&dir.join("live.jsonl")))
}

fn live_9(log: &[SessionEvent], trace: &[LiveEmit]) -> Vec<String> {
    check_live_with_log(Profile::V2026_08, log, trace, false)
        .into_iter()
        .filter(|f| f.requirement == "LIVE-9")
        .map(|f| f.message)
        .collect()
}

#[test]
fn the_real_loop_repeats_no_durable_event() {
    for dir in runs() {
        let (log, trace) = recorded(&dir);
        assert!(
            trace.iter().all(|e| e.at.is_some()),
            "{}: merged by `at`",
            dir.display()
        );
        let found = live_9(&log, &trace);
        assert!(found.is_empty(), "{}: {found:?}", dir.display());
    }
}

/// How a renamed mirror passes its arguments.
#[derive(Clone, Copy, Debug)]
enum Payload {
    /// `{turn, step, chunk}`, upstream's 2026-08 payload object without the agent.
    Object,
    /// `{args: [agent, turn, step, chunk]}`, upstream's positional call as a recorder keeps it.
    Positional,
}

#[test]
fn the_real_loop_with_renamed_mirrors_put_back_is_reported_once_per_mirror() {
    let mut total = 0;
    for dir in runs() {
        let (log, trace) = recorded(&dir);
        for payload in [Payload::Object, Payload::Positional] {
            // after: upstream's place, one line after the append (`at` = seq + 1); before: a
            // port that fires first (`at` = seq).
            for after in [true, false] {
                let mut mutated = trace.clone();
                let mut injected = 0;
                for (i, event) in log.iter().enumerate() {
                    let Some(m) = REMOVED_MIRRORS
                        .iter()
                        .find(|m| m.durable_twin_2026_08 == event.kind)
                    else {
                        continue;
                    };
                    let args: Vec<(&str, Value)> = m
                        .arguments
                        .iter()
                        .filter_map(|a| a.field_2026_08)
                        .filter_map(|f| event.data.get(f).map(|v| (f, v.clone())))
                        .collect();
                    let data = match payload {
                        Payload::Object => Value::Object(
                            args.iter()
                                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                                .collect(),
                        ),
                        Payload::Positional => {
                            let mut values = vec![Value::from("mirrorless-dsh-session")];
                            values.extend(args.iter().map(|(_, v)| v.clone()));
                            serde_json::json!({ "args": values })
                        }
                    };
                    let seq = event.seq.unwrap_or(i as u64);
                    let at = if after { seq + 1 } else { seq };
                    // Right next to the append, as upstream fired its mirrors: just after
                    // (or before) the `session/event` dispatch that announced it.
                    let announced = mutated
                        .iter()
                        .position(|e| {
                            e.event == "session/event"
                                && e.data.get("seq").and_then(Value::as_u64) == Some(seq)
                        })
                        .unwrap_or_else(|| panic!("{}: seq {seq} is announced", dir.display()));
                    let place = if after { announced + 1 } else { announced };
                    mutated.insert(
                        place,
                        LiveEmit {
                            event: format!("renamed/{}", m.ident),
                            agent: Some("mirrorless-dsh-session".to_owned()),
                            data,
                            at: Some(at),
                        },
                    );
                    injected += 1;
                }
                let found = live_9(&log, &mutated);
                assert_eq!(
                    found.len(),
                    injected,
                    "{} {payload:?} after={after}: {found:#?}",
                    dir.display()
                );
                total += injected;
            }
        }
    }
    assert!(total > 1000, "{total} mirrors put back");
}
