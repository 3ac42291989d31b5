//! Throughput of the log checker against the floor of reading and parsing the same file with
//! serde_json alone. Run: `cargo bench -p mirrorless-conformance --bench check`
//! (optional arguments: number of turns, default 4000 ≈ 1.2M events; `--profile 2026-07` or
//! `--profile 2026-08` for one profile, default both; `--cli PATH` also runs the `mirrorless`
//! binary at PATH on the same file, `mirrorless check --profile P FILE`, as a user does, and
//! reports its CPU time against the same floor; `MIRRORLESS_BENCH_KEEP=DIR` keeps the logs).
//!
//! The synthetic log is realistic in mix: every turn has a prompt, a reasoning + text + two
//! tool-call step with its tool results, then a text answer; chunks dominate (≈ 95 % of
//! events), one chunk per token-sized delta, as the upstream loop records them.

use mirrorless_conformance::Profile;
use mirrorless_conformance::check::LogChecker;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Instant;

struct Gen<W: Write> {
    out: W,
    seq: u64,
    time: u64,
    /// The 2026-07 shapes: flat messages, `turn/start.trigger`, the prompt before the step.
    v07: bool,
}

impl<W: Write> Gen<W> {
    fn ev(&mut self, kind: &str, data: &str, extra: &str) -> std::io::Result<u64> {
        let seq = self.seq;
        self.time += 3;
        writeln!(
            self.out,
            r#"{{"type":"{kind}","seq":{seq},"time":{},"data":{data}{extra}}}"#,
            self.time
        )?;
        self.seq += 1;
        Ok(seq)
    }

    fn chunk(&mut self, turn: u64, step: u64, chunk: &str) -> std::io::Result<u64> {
        self.ev(
            "assistant/chunk",
            &format!(r#"{{"turn":{turn},"step":{step},"chunk":{chunk}}}"#),
            "",
        )
    }

    /// Streams a text or reasoning block one word per delta; returns the block-end JSON.
    fn block(
        &mut self,
        turn: u64,
        step: u64,
        index: u32,
        kind: &str,
        words: &[&str],
        seqs: &mut Vec<u64>,
    ) -> std::io::Result<String> {
        seqs.push(self.chunk(
            turn,
            step,
            &format!(r#"{{"type":"block-start","index":{index},"blockType":"{kind}"}}"#),
        )?);
        let mut text = String::new();
        for w in words {
            let piece = format!(" {w}");
            text.push_str(&piece);
            seqs.push(self.chunk(
                turn,
                step,
                &format!(r#"{{"type":"{kind}-delta","index":{index},"text":"{piece}"}}"#),
            )?);
        }
        let block = format!(r#"{{"type":"{kind}","text":"{text}"}}"#);
        seqs.push(self.chunk(
            turn,
            step,
            &format!(r#"{{"type":"block-end","index":{index},"block":{block}}}"#),
        )?);
        Ok(block)
    }

    fn finish(
        &mut self,
        turn: u64,
        step: u64,
        reason: &str,
        seqs: &mut Vec<u64>,
    ) -> std::io::Result<()> {
        seqs.push(self.chunk(
            turn,
            step,
            r#"{"type":"usage","usage":{"inputTokens":1200,"outputTokens":180,"cacheReadTokens":900}}"#,
        )?);
        seqs.push(self.chunk(
            turn,
            step,
            &format!(r#"{{"type":"finish","reason":{{"kind":"{reason}"}}}}"#),
        )?);
        Ok(())
    }

    fn message(
        &mut self,
        turn: u64,
        step: u64,
        content: &[String],
        seqs: &[u64],
    ) -> std::io::Result<()> {
        let cited: Vec<String> = seqs.iter().map(u64::to_string).collect();
        if self.v07 {
            self.ev(
                "assistant/message",
                &format!(
                    r#"{{"turn":{turn},"step":{step},"content":[{}],"usage":{{"inputTokens":1200,"outputTokens":180,"cacheReadTokens":900}}}}"#,
                    content.join(",")
                ),
                &format!(r#","surfaceOp":"append","sourceEventSeqs":[{}]"#, cited.join(",")),
            )?;
            return Ok(());
        }
        self.ev(
            "assistant/message",
            &format!(
                r#"{{"turn":{turn},"step":{step},"message":{{"id":"m{}","role":"assistant","content":[{}],"source":{{"kind":"model","provider":"p","model":"m"}}}},"usage":{{"inputTokens":1200,"outputTokens":180,"cacheReadTokens":900}}}}"#,
                self.seq,
                content.join(",")
            ),
            &format!(r#","sourceEventSeqs":[{}],"surfaceOp":"append""#, cited.join(",")),
        )?;
        Ok(())
    }

    fn turn(&mut self, turn: u64, words: &[&str]) -> std::io::Result<()> {
        if self.v07 {
            self.ev(
                "turn/start",
                &format!(
                    r#"{{"turn":{turn},"trigger":{{"kind":"message","source":{{"kind":"user"}}}}}}"#
                ),
                "",
            )?;
            self.ev(
                "user/message",
                r#"{"content":[{"type":"text","text":"Read the two files and summarize them."}],"source":{"kind":"user"}}"#,
                r#","surfaceOp":"append""#,
            )?;
            self.ev("step/start", &format!(r#"{{"turn":{turn},"step":1}}"#), "")?;
        } else {
            self.ev("turn/start", &format!(r#"{{"turn":{turn}}}"#), "")?;
            self.ev("step/start", &format!(r#"{{"turn":{turn},"step":1}}"#), "")?;
            self.ev(
                "user/message",
                r#"{"id":"u","role":"user","content":[{"type":"text","text":"Read the two files and summarize them."}],"source":{"kind":"user"}}"#,
                r#","surfaceOp":"append""#,
            )?;
            self.ev(
                "request/header",
                r#"{"header":{"config":{"provider":"p","model":"m"}},"reason":"initial"}"#,
                "",
            )?;
        }
        let mut seqs = Vec::new();
        let mut content = vec![self.block(turn, 1, 0, "reasoning", &words[..60], &mut seqs)?];
        content.push(self.block(turn, 1, 1, "text", &words[..40], &mut seqs)?);
        for (i, id) in ["call_a", "call_b"].iter().enumerate() {
            let index = i as u32 + 2;
            seqs.push(self.chunk(
                turn,
                1,
                &format!(r#"{{"type":"block-start","index":{index},"blockType":"tool-call"}}"#),
            )?);
            for (j, piece) in [r#"{\"path\""#, r#":\"src/"#, r#"main.rs\"}"#]
                .iter()
                .enumerate()
            {
                let name = if j == 0 { r#","name":"read""# } else { "" };
                seqs.push(self.chunk(
                    turn,
                    1,
                    &format!(
                        r#"{{"type":"tool-call-delta","index":{index},"id":"{id}"{name},"argumentsDelta":"{piece}"}}"#
                    ),
                )?);
            }
            let block = format!(
                r#"{{"type":"tool-call","id":"{id}","name":"read","arguments":"{{\"path\":\"src/main.rs\"}}"}}"#
            );
            seqs.push(self.chunk(
                turn,
                1,
                &format!(r#"{{"type":"block-end","index":{index},"block":{block}}}"#),
            )?);
            content.push(block);
        }
        self.finish(turn, 1, "tool-calls", &mut seqs)?;
        self.message(turn, 1, &content, &seqs)?;
        for id in ["call_a", "call_b"] {
            let call = self.ev(
                "tool/call",
                &format!(
                    r#"{{"turn":{turn},"step":1,"callId":"{id}","name":"read","arguments":"{{\"path\":\"src/main.rs\"}}"}}"#
                ),
                "",
            )?;
            if self.v07 {
                self.ev(
                    "tool/result",
                    &format!(
                        r#"{{"turn":{turn},"step":1,"callId":"{id}","content":[{{"type":"text","text":"fn main() {{}}"}}],"isError":false}}"#
                    ),
                    &format!(r#","surfaceOp":"append","sourceEventSeqs":[{call}]"#),
                )?;
                continue;
            }
            let seq = self.seq;
            self.ev(
                "tool/result",
                &format!(
                    r#"{{"turn":{turn},"step":1,"message":{{"id":"t{seq}","role":"user","content":[{{"type":"tool-result","toolCallId":"{id}","content":[{{"type":"text","text":"fn main() {{}}"}}],"isError":false}}],"source":{{"kind":"tool","callId":"{id}"}}}}}}"#
                ),
                &format!(r#","sourceEventSeqs":[{call}],"surfaceOp":"append""#),
            )?;
        }
        self.ev("step/end", &format!(r#"{{"turn":{turn},"step":1}}"#), "")?;
        self.ev("step/start", &format!(r#"{{"turn":{turn},"step":2}}"#), "")?;
        let mut seqs = Vec::new();
        let content = vec![self.block(turn, 2, 0, "text", &words[..180], &mut seqs)?];
        self.finish(turn, 2, "stop", &mut seqs)?;
        self.message(turn, 2, &content, &seqs)?;
        self.ev("step/end", &format!(r#"{{"turn":{turn},"step":2}}"#), "")?;
        self.ev(
            "turn/end",
            &format!(r#"{{"turn":{turn},"reason":{{"kind":"completed"}}}}"#),
            "",
        )?;
        Ok(())
    }
}

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time this process has spent on a core, in seconds (`/proc/self/schedstat`): stable
/// on a shared machine where wall time is not.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Best wall time and best CPU time over `runs` runs.
fn best_of<F: FnMut() -> u64>(runs: usize, mut f: F) -> (f64, Option<f64>, u64) {
    let mut best = f64::MAX;
    let mut best_cpu: Option<f64> = None;
    let mut result = 0;
    for _ in 0..runs {
        let cpu0 = cpu_seconds();
        let start = Instant::now();
        result = f();
        best = best.min(start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu0, cpu_seconds()) {
            best_cpu = Some(best_cpu.map_or(b - a, |c: f64| c.min(b - a)));
        }
    }
    (best, best_cpu, result)
}

/// CPU time of the waited-for children of this process so far, in seconds.
#[cfg(unix)]
fn children_cpu_seconds() -> Option<f64> {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return None;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(secs(usage.ru_utime) + secs(usage.ru_stime))
}

#[cfg(not(unix))]
fn children_cpu_seconds() -> Option<f64> {
    None
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let turns: u64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(4000);
    let after = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let profiles = match after("--profile").as_deref() {
        Some("2026-07") => vec![Profile::V2026_07],
        Some("2026-08") => vec![Profile::V2026_08],
        Some(other) => {
            eprintln!("unknown profile {other:?}: 2026-07 or 2026-08");
            std::process::exit(2);
        }
        None => vec![Profile::V2026_07, Profile::V2026_08],
    };
    let cli = after("--cli");
    for profile in profiles {
        bench(profile, turns, cli.as_deref())?;
    }
    Ok(())
}

fn bench(profile: Profile, turns: u64, cli: Option<&str>) -> std::io::Result<()> {
    let v07 = profile == Profile::V2026_07;
    println!("== profile {profile} ==");
    let dir = tempfile::tempdir()?;
    // `MIRRORLESS_BENCH_KEEP=DIR` keeps the logs (`DIR/synthetic-PROFILE.jsonl`), for a profiler.
    let path = match std::env::var_os("MIRRORLESS_BENCH_KEEP") {
        Some(keep) => std::path::PathBuf::from(keep).join(format!("synthetic-{profile}.jsonl")),
        None => dir.path().join("synthetic.jsonl"),
    };
    let words: Vec<&str> = "the loop records every streamed delta as a durable chunk event in its session log and consumers read session event to filter the durable twin instead of the removed live mirror"
        .split(' ')
        .cycle()
        .take(200)
        .collect();
    {
        let mut g = Gen {
            out: BufWriter::new(File::create(&path)?),
            seq: 0,
            time: 1_783_000_000_000,
            v07,
        };
        if v07 {
            writeln!(
                g.out,
                r#"{{"type":"session","version":0,"id":"bench","createdAt":0}}"#
            )?;
        } else {
            writeln!(
                g.out,
                r#"{{"type":"session","version":0,"id":"bench","createdAt":0,"delegationDepth":0}}"#
            )?;
        }
        for t in 1..=turns {
            g.turn(t, &words)?;
        }
        g.out.flush()?;
        eprintln!("generated {} events", g.seq);
    }
    let bytes = std::fs::metadata(&path)?.len();
    let mb = bytes as f64 / 1e6;

    let hwm_before = vm_hwm_kib();
    let (floor_s, floor_cpu, floor_lines) = best_of(5, || {
        let mut reader = BufReader::with_capacity(256 * 1024, File::open(&path).expect("open"));
        let mut buf = Vec::new();
        let mut n = 0u64;
        loop {
            buf.clear();
            if reader.read_until(b'\n', &mut buf).expect("read") == 0 {
                break;
            }
            serde_json::from_slice::<serde::de::IgnoredAny>(&buf).expect("valid JSON");
            n += 1;
        }
        n
    });
    let (check_s, check_cpu, events) = best_of(5, || {
        let file = File::open(&path).expect("open");
        let outcome = LogChecker::check_reader(profile, BufReader::with_capacity(256 * 1024, file))
            .expect("read");
        assert!(
            outcome.findings.is_empty(),
            "{:?}",
            &outcome.findings[..outcome.findings.len().min(3)]
        );
        outcome.events
    });
    let hwm_after = vm_hwm_kib();
    println!("file: {bytes} bytes ({mb:.1} MB), {events} events, {floor_lines} lines");
    println!(
        "floor  (read_until + serde_json IgnoredAny): wall {floor_s:.3} s = {:.0} MB/s",
        mb / floor_s
    );
    println!(
        "check  (LogChecker::check_reader, {profile}):   wall {check_s:.3} s = {:.0} MB/s, {:.2} M events/s",
        mb / check_s,
        events as f64 / check_s / 1e6
    );
    println!(
        "ratio  check / floor throughput (wall): {:.2}",
        floor_s / check_s
    );
    if let (Some(f), Some(c)) = (floor_cpu, check_cpu) {
        println!(
            "cpu    floor {f:.3} s = {:.0} MB/s; check {c:.3} s = {:.0} MB/s; ratio {:.2}",
            mb / f,
            mb / c,
            f / c
        );
    }
    if let (Some(b), Some(a)) = (hwm_before, hwm_after) {
        println!("peak RSS (VmHWM): {b} KiB before the runs, {a} KiB after");
    }
    if let Some(bin) = cli {
        // As a user runs it: the binary on the file, its report to a pipe.
        let mut best_cpu: Option<f64> = None;
        let mut best_wall = f64::MAX;
        for _ in 0..5 {
            let cpu0 = children_cpu_seconds();
            let start = Instant::now();
            let out = std::process::Command::new(bin)
                .args(["check", "--profile", &profile.to_string()])
                .arg(&path)
                .output()?;
            best_wall = best_wall.min(start.elapsed().as_secs_f64());
            assert!(
                out.status.success(),
                "{bin} check failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            if let (Some(a), Some(b)) = (cpu0, children_cpu_seconds()) {
                best_cpu = Some(best_cpu.map_or(b - a, |c: f64| c.min(b - a)));
            }
        }
        println!(
            "cli    (`mirrorless check --profile {profile}`): wall {best_wall:.3} s = {:.0} MB/s",
            mb / best_wall
        );
        if let (Some(f), Some(c)) = (floor_cpu, best_cpu) {
            println!(
                "cpu    cli {c:.3} s = {:.0} MB/s; ratio cli / floor {:.2}",
                mb / c,
                f / c
            );
        }
    }
    Ok(())
}
