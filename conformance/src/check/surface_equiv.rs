//! Issue #32 item 4 ("validate them without building a parse tree … with byte-identical
//! reports"): a `tool/result` or `user/message` line read in one pass from its envelope down
//! through `data.message` (`reader.rs`'s `LineDown`, `monitor/surfacedown.rs`) must give
//! exactly the outcome of the general path, which reads the envelope, then `data` once per
//! rule (SURF-3's `Identity`, MSG-8's `AuthorFields` or `Value`, MSG-9's `Flat`, the result's
//! `Data`, `MessageObj`, `CallSource`), or decline the line. These tests check whole outcomes
//! of generated logs both ways.

use super::fast_equiv::{ev, profile};
use super::{CheckOutcome, LogChecker, ReadOptions};
use crate::vocab::Profile;
use proptest::prelude::*;
use std::io::BufReader;

/// One member of a generated line's `data` (for either type), right or wrong; `MESSAGE`
/// stands for a generated `data.message` object.
fn data_member() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        4 => Just(r#""turn":1"#),
        1 => Just(r#""turn":2"#),
        1 => Just(r#""turn":null"#),
        1 => Just(r#""turn":"1""#),
        4 => Just(r#""step":1"#),
        1 => Just(r#""step":1.0"#),
        1 => Just(r#""st\u0065p":1"#),
        2 => Just(r#""callId":"c""#),
        1 => Just(r#""callId":"d""#),
        1 => Just(r#""c\u0061llId":"c""#),
        1 => Just(r#""callId":3"#),
        1 => Just(r#""callId":null"#),
        1 => Just(r#""callId":"\ud800""#),
        2 => Just(r#""content":[{"type":"text","text":"fn main() {}"}]"#),
        1 => Just(r#""content":[{"type":"text","text":"é 😀 \ud83d\ude00 \"q\" \n","n":1e400}]"#),
        1 => Just(r#""content":null"#),
        1 => Just(r#""content":"x""#),
        1 => Just(r#""isError":false"#),
        1 => Just(r#""error":{"code":"TOOL_NOT_STARTED"}"#),
        1 => Just(r#""error":{"code":"interrupted","code":"x"}"#),
        1 => Just(r#""error":{"code":5}"#),
        1 => Just(r#""error":null"#),
        1 => Just(r#""error":["interrupted"]"#),
        1 => Just(r#""name":4"#),
        1 => Just(r#""name":"read""#),
        1 => Just(r#""usage":1e400"#),
        1 => Just(r#""arguments":{}"#),
        1 => Just(r#""reason":[1]"#),
        1 => Just(r#""trigger":null"#),
        1 => Just(r#""interrupted":true"#),
        2 => Just(r#""id":"u""#),
        1 => Just(r#""id":"t1""#),
        1 => Just(r#""id":null"#),
        1 => Just(r#""id":"""#),
        1 => Just(r#""id":7"#),
        1 => Just(r#""\u0069d":"u2""#),
        2 => Just(r#""role":"user""#),
        1 => Just(r#""role":"tool""#),
        1 => Just(r#""role":null"#),
        2 => Just(r#""source":{"kind":"user"}"#),
        1 => Just(r#""source":{"kind":"tool","callId":"c"}"#),
        1 => Just(r#""source":{"kind":5}"#),
        1 => Just(r#""source":null"#),
        1 => Just(r#""source":"user""#),
        8 => Just(r#""message":MESSAGE"#),
        1 => Just(r#""message":null"#),
        1 => Just(r#""message":5"#),
        1 => Just(r#""message":[]"#),
        1 => Just(r#""message":["x",{"callId":"c"}]"#),
        1 => Just(r#""other":{"a":[1,"b"]}"#),
        1 => Just(r#""é\n":"\u00e9""#),
    ]
}

/// One member of a generated line's `data.message` object, right or wrong.
fn message_member() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        4 => Just(r#""id":"t1""#),
        1 => Just(r#""id":"t2""#),
        1 => Just(r#""id":"u""#),
        1 => Just(r#""id":null"#),
        1 => Just(r#""id":"""#),
        1 => Just(r#""id":5"#),
        1 => Just(r#""id":"\ud800""#),
        1 => Just(r#""id":"t\u00e9""#),
        1 => Just(r#""\u0069d":"t3""#),
        4 => Just(r#""role":"user""#),
        1 => Just(r#""role":"tool""#),
        1 => Just(r#""role":"assistant""#),
        1 => Just(r#""role":null"#),
        4 => Just(r#""source":{"kind":"tool","callId":"c"}"#),
        1 => Just(r#""source":{"callId":"d","kind":"tool"}"#),
        1 => Just(r#""source":{"kind":"tool","callId":"c","callId":"d"}"#),
        1 => Just(r#""source":{"kind":"tool"}"#),
        1 => Just(r#""source":{"kind":"tool","callId":1e400}"#),
        1 => Just(r#""source":["c"]"#),
        1 => Just(r#""source":null"#),
        1 => Just(r#""source":{"kind":"user"}"#),
        4 => Just(r#""content":[{"type":"tool-result","toolCallId":"c","content":[{"type":"text","text":"fn main() {}"}],"isError":false}]"#),
        1 => Just(r#""content":null"#),
        1 => Just(r#""content":{}"#),
        1 => Just(r#""message":null"#),
        1 => Just(r#""message":{}"#),
        1 => Just(r#""other":1"#),
    ]
}

/// One member of a generated line's envelope after its `type`, right or wrong: `SEQ` stands
/// for the line's seq, `CALLC` and `CALLD` for the seqs of the two `tool/call`s, `DATA` for
/// a generated `data`.
fn envelope_member() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        8 => Just(r#""seq":SEQ"#),
        1 => Just(r#""seq":null"#),
        1 => Just(r#""seq":"7""#),
        1 => Just(r#""seq":-1"#),
        1 => Just(r#""seq":1e0"#),
        4 => Just(r#""time":1783000000000"#),
        1 => Just(r#""time":"x""#),
        8 => Just(r#""data":DATA"#),
        1 => Just(r#""data":null"#),
        1 => Just(r#""data":[]"#),
        1 => Just(r#""data":"d""#),
        4 => Just(r#""sourceEventSeqs":[CALLC]"#),
        1 => Just(r#""sourceEventSeqs":[CALLD]"#),
        1 => Just(r#""sourceEventSeqs":[CALLC,CALLD]"#),
        1 => Just(r#""sourceEventSeqs":[]"#),
        1 => Just(r#""sourceEventSeqs":"x""#),
        1 => Just(r#""sourceEventSeqs":[[CALLC,CALLD]]"#),
        1 => Just(r#""sourceEventSeqs":null"#),
        6 => Just(r#""surfaceOp":"append""#),
        1 => Just(r#""surfaceOp":{"replace":"t1"}"#),
        1 => Just(r#""surfaceOp":null"#),
        1 => Just(r#""surfaceOp":"insert""#),
        1 => Just(r#""ignorable":true"#),
        1 => Just(r#""seq0":1"#),
        1 => Just(r#""other":[1,{"a":"b"}]"#),
        1 => Just(r#""type":"tool/result""#),
        1 => Just(r#""type":null"#),
    ]
}

/// One generated `tool/result` or `user/message` line, and where it lies.
#[derive(Debug, Clone)]
struct Line {
    kind: &'static str,
    /// The writer's envelope (`seq`, `time`, `data`, `sourceEventSeqs`, `surfaceOp`), or these
    /// members.
    envelope: Option<Vec<&'static str>>,
    data: Vec<&'static str>,
    message: Vec<&'static str>,
    /// 0: in the step, after its calls; 1: after the step's end; 2: after the turn's end.
    place: u8,
}

fn line() -> impl Strategy<Value = Line> {
    (
        prop_oneof![Just("tool/result"), Just("user/message")],
        prop::option::of(prop::collection::vec(envelope_member(), 0..8)),
        prop::collection::vec(data_member(), 0..8),
        prop::collection::vec(message_member(), 0..6),
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
    )
        .prop_map(|(kind, envelope, data, message, place)| Line {
            kind,
            envelope,
            data,
            message,
            place,
        })
}

/// Writes `line` as event `seq` (then the next seq); `calls` are the seqs of the two calls.
fn write_line(out: &mut Vec<u8>, seq: &mut u64, line: &Line, calls: [u64; 2]) {
    let message = format!("{{{}}}", line.message.join(","));
    let data = format!("{{{}}}", line.data.join(",")).replace("MESSAGE", &message);
    let members = match &line.envelope {
        None => vec![
            r#""seq":SEQ"#,
            r#""time":1783000000000"#,
            r#""data":DATA"#,
            r#""sourceEventSeqs":[CALLC]"#,
            r#""surfaceOp":"append""#,
        ],
        Some(members) => members.clone(),
    };
    let members = members
        .join(",")
        .replace("SEQ", &seq.to_string())
        .replace("CALLC", &calls[0].to_string())
        .replace("CALLD", &calls[1].to_string())
        .replace("DATA", &data);
    let sep = if members.is_empty() { "" } else { "," };
    out.extend_from_slice(format!(r#"{{"type":"{}"{sep}{members}}}"#, line.kind).as_bytes());
    out.push(b'\n');
    *seq += 1;
}

/// A log of one turn whose step streams two tool calls `c` and `d`, finalizes them in its
/// message and dispatches both, with `lines` in the step after the calls, after the step's
/// end or after the turn's end (as each says).
fn log_with_lines(profile: Profile, lines: &[Line]) -> Vec<u8> {
    let v07 = profile == Profile::V2026_07;
    let mut out = Vec::new();
    let mut seq = 0u64;
    out.extend_from_slice(br#"{"type":"session","version":0,"id":"s","createdAt":0}"#);
    out.push(b'\n');
    let start = if v07 {
        r#"{"turn":1,"trigger":{"kind":"message","source":{"kind":"user"}}}"#
    } else {
        r#"{"turn":1}"#
    };
    ev(&mut out, &mut seq, "turn/start", start, "");
    let step = r#"{"turn":1,"step":1}"#;
    ev(&mut out, &mut seq, "step/start", step, "");
    let mut cited = Vec::new();
    let mut content = Vec::new();
    let chunk = |out: &mut Vec<u8>, seq: &mut u64, chunk: &str| {
        let data = format!(r#"{{"turn":1,"step":1,"chunk":{chunk}}}"#);
        ev(out, seq, "assistant/chunk", &data, "")
    };
    for (index, id) in ["c", "d"].iter().enumerate() {
        let start = format!(r#"{{"type":"block-start","index":{index},"blockType":"tool-call"}}"#);
        cited.push(chunk(&mut out, &mut seq, &start));
        let delta = format!(
            r#"{{"type":"tool-call-delta","index":{index},"id":"{id}","name":"read","argumentsDelta":"{{}}"}}"#
        );
        cited.push(chunk(&mut out, &mut seq, &delta));
        let block =
            format!(r#"{{"type":"tool-call","id":"{id}","name":"read","arguments":"{{}}"}}"#);
        let end = format!(r#"{{"type":"block-end","index":{index},"block":{block}}}"#);
        cited.push(chunk(&mut out, &mut seq, &end));
        content.push(block);
    }
    let finish = r#"{"type":"finish","reason":{"kind":"tool-calls"}}"#;
    cited.push(chunk(&mut out, &mut seq, finish));
    let content = content.join(",");
    let data = if v07 {
        format!(r#"{{"turn":1,"step":1,"content":[{content}]}}"#)
    } else {
        format!(
            r#"{{"turn":1,"step":1,"message":{{"id":"m","role":"assistant","content":[{content}],"source":{{"kind":"model","provider":"p","model":"m"}}}}}}"#
        )
    };
    let seqs: Vec<String> = cited.iter().map(u64::to_string).collect();
    let extra = format!(
        r#","sourceEventSeqs":[{}],"surfaceOp":"append""#,
        seqs.join(",")
    );
    ev(&mut out, &mut seq, "assistant/message", &data, &extra);
    let mut calls = [0; 2];
    for (i, id) in ["c", "d"].iter().enumerate() {
        let call =
            format!(r#"{{"turn":1,"step":1,"callId":"{id}","name":"read","arguments":"{{}}"}}"#);
        calls[i] = ev(&mut out, &mut seq, "tool/call", &call, "");
    }
    let place = |out: &mut Vec<u8>, seq: &mut u64, at: u8| {
        for line in lines.iter().filter(|l| l.place == at) {
            write_line(out, seq, line, calls);
        }
    };
    place(&mut out, &mut seq, 0);
    ev(&mut out, &mut seq, "step/end", step, "");
    place(&mut out, &mut seq, 1);
    let end = r#"{"turn":1,"reason":{"kind":"completed"}}"#;
    ev(&mut out, &mut seq, "turn/end", end, "");
    place(&mut out, &mut seq, 2);
    out
}

/// The outcome of checking `log` with or without the fast paths, lines longer than
/// `max_line` skipped; the first 50 findings get their context lines.
fn check(profile: Profile, log: &[u8], fast: bool, max_line: usize) -> CheckOutcome {
    let checker = LogChecker::new(profile);
    let checker = if fast {
        checker
    } else {
        checker.without_fast_paths()
    };
    let options = ReadOptions {
        context_findings: 50,
        max_line_bytes: max_line,
        ..ReadOptions::default()
    };
    checker
        .read_all(BufReader::with_capacity(256 * 1024, log), &options)
        .expect("a log in memory")
}

/// Issue #32 item 4 ("validate them without building a parse tree … byte-identical
/// reports"): a `tool/result` or `user/message` line read in one pass
/// (`monitor/surfacedown.rs`) gets the findings the envelope's reading and each rule's own
/// reading of `data` get — SURF-1/2/3, MSG-8, MSG-9, TOOL-1/2/3, TURN-3, LOG-2, SEQ-1/2 —
/// whatever its envelope's and `data`'s members: their order, values (escaped, unicode,
/// lone surrogates, `1e400`, wrong types, `null`), repetitions, and lines over the length
/// limit.
fn one_pass_reports_what_each_rule_reports(
    profile: Profile,
    lines: &[Line],
    max_line: usize,
) -> Result<(), TestCaseError> {
    let log = log_with_lines(profile, lines);
    let fast = check(profile, &log, true, max_line);
    let general = check(profile, &log, false, max_line);
    prop_assert_eq!(fast, general, "{}", String::from_utf8_lossy(&log));
    Ok(())
}

/// [`one_pass_reports_what_each_rule_reports`] on 4,096 generated logs, drawn in four shards of
/// 1,024 that the test harness runs side by side (one test of 4,096 was the longest of its
/// binary, two thirds of its wall time: issue #32 item 5). Each shard draws its own cases.
mod a_result_or_prompt_read_in_one_pass_reports_what_each_rule_reports {
    use super::{Line, line, one_pass_reports_what_each_rule_reports, profile};
    use proptest::prelude::*;

    fn max_line() -> impl Strategy<Value = usize> {
        prop_oneof![7 => Just(crate::check::DEFAULT_MAX_LINE_BYTES), 1 => 150usize..400]
    }

    fn lines() -> impl Strategy<Value = Vec<Line>> {
        prop::collection::vec(line(), 1..5)
    }

    /// One test per name, each the same property on its own 1,024 cases.
    macro_rules! shards {
        ($($shard:ident),*) => {
            proptest! {
                #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]
                $(
                    #[test]
                    fn $shard(profile in profile(), lines in lines(), max_line in max_line()) {
                        one_pass_reports_what_each_rule_reports(profile, &lines, max_line)?;
                    }
                )*
            }
        };
    }

    shards!(shard_1, shard_2, shard_3, shard_4);
}

/// The writer's `tool/result` and `user/message` lines (`conformance/benches/check.rs`'s
/// shapes), in both profiles, take the one-pass reading (else the property above would
/// compare the general path with itself), and nothing is reported on them either way.
#[test]
fn the_writers_result_and_prompt_lines_take_the_one_pass_reading() {
    for profile in [Profile::V2026_07, Profile::V2026_08] {
        let (result, prompt) = if profile == Profile::V2026_07 {
            (
                vec![
                    r#""turn":1"#,
                    r#""step":1"#,
                    r#""callId":"c""#,
                    r#""content":[{"type":"text","text":"fn main() {}"}]"#,
                    r#""isError":false"#,
                ],
                vec![
                    r#""content":[{"type":"text","text":"Read the two files."}]"#,
                    r#""source":{"kind":"user"}"#,
                ],
            )
        } else {
            (
                vec![r#""turn":1"#, r#""step":1"#, r#""message":MESSAGE"#],
                vec![
                    r#""id":"u""#,
                    r#""role":"user""#,
                    r#""content":[{"type":"text","text":"Read the two files."}]"#,
                    r#""source":{"kind":"user"}"#,
                ],
            )
        };
        let message = vec![
            r#""id":"t1""#,
            r#""role":"user""#,
            r#""content":[{"type":"tool-result","toolCallId":"c","content":[{"type":"text","text":"fn main() {}"}],"isError":false}]"#,
            r#""source":{"kind":"tool","callId":"c"}"#,
        ];
        let lines = [
            Line {
                kind: "user/message",
                envelope: None,
                data: prompt,
                message: Vec::new(),
                place: 0,
            },
            Line {
                kind: "tool/result",
                envelope: None,
                data: result,
                message,
                place: 0,
            },
        ];
        let log = log_with_lines(profile, &lines);
        let text = String::from_utf8(log.clone()).expect("the generated log is UTF-8");
        let mut checker = LogChecker::new(profile);
        let mut taken = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let no = i as u64 + 1;
            if line.starts_with(r#"{"type":"tool/result""#)
                || line.starts_with(r#"{"type":"user/message""#)
            {
                assert!(
                    checker.surface_line(Some(no), line.as_bytes()),
                    "{profile}: {line}"
                );
                taken.push(no);
            } else {
                checker.feed_line(no, line.as_bytes(), true);
            }
        }
        assert_eq!(taken.len(), 2);
        let outcome = checker.finish();
        let general = check(profile, &log, false, super::DEFAULT_MAX_LINE_BYTES);
        // The call `d` has no result (and 2026-07 runs tools one at a time): those findings,
        // the same both ways, and none on the two lines read in one pass.
        assert_eq!(outcome.findings, general.findings, "{profile}");
        assert_eq!(outcome.events, general.events);
        let on_lines: Vec<_> = outcome
            .findings
            .iter()
            .filter(|f| f.line.is_some_and(|l| taken.contains(&l)))
            .collect();
        assert!(on_lines.is_empty(), "{profile}: {on_lines:?}");
    }
}
