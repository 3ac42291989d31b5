//! `cargo bench -p mirrorless-lint --bench depth_estimate -- [--rounds N] [--print] PATH...`:
//! the nesting-depth estimate of TypeScript and JavaScript (`frontend::depth::estimate`, run
//! before every parse) over the script files under each PATH, in nanoseconds per byte (issue
//! 32 item 1). Every file is estimated in both JSX readings, as a run may. Results are recorded
//! in `docs/benchmarks/lint.md` ("Issue 32, fifth round"); `benches/depth_paired.sh` pairs two
//! builds of this program, alternating.
//!
//! With `--print`, prints instead `jsx depth at path` for every file and reading: the output of
//! two builds must be identical (the equivalence of a faster scanner on a real corpus).

use mirrorless_lint::frontend::depth::{Syntax, estimate};
use std::path::PathBuf;
use std::time::Instant;

/// The extensions the linter parses as TypeScript or JavaScript.
const SCRIPTS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// Nanoseconds this thread has run on a CPU, from `/proc/thread-self/schedstat` (Linux): on a
/// shared machine the wall time depends on the other load, the CPU time much less.
fn cpu_ns() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut rounds = 10usize;
    let mut print = false;
    let mut roots = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every bench target.
            "--bench" => {}
            "--print" => print = true,
            "--rounds" => {
                let n = args.next().and_then(|n| n.parse().ok());
                rounds = n.unwrap_or_else(|| {
                    eprintln!("--rounds takes a number");
                    std::process::exit(2)
                });
            }
            _ => roots.push(PathBuf::from(arg)),
        }
    }
    if roots.is_empty() {
        eprintln!("usage: depth_estimate [--rounds N] [--print] PATH...");
        std::process::exit(2);
    }
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for root in &roots {
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("{}: {e}", root.display());
                    std::process::exit(1)
                }
            };
            let script = entry
                .path()
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| SCRIPTS.contains(&e));
            if !entry.file_type().is_file() || !script {
                continue;
            }
            // Not UTF-8: the linter does not parse it either.
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                files.push((entry.path().to_owned(), text));
            }
        }
    }
    if print {
        for (path, text) in &files {
            for jsx in [false, true] {
                let n = estimate(text, Syntax::Script { jsx });
                println!("{jsx} {} {} {}", n.depth, n.at, path.display());
            }
        }
        return;
    }
    let bytes: usize = files.iter().map(|(_, t)| t.len()).sum::<usize>() * 2;
    let mut per_round = Vec::with_capacity(rounds);
    let mut cpu_per_round = Vec::with_capacity(rounds);
    let start = Instant::now();
    for _ in 0..rounds {
        let cpu0 = cpu_ns();
        let round = Instant::now();
        for (_, text) in &files {
            for jsx in [false, true] {
                std::hint::black_box(estimate(std::hint::black_box(text), Syntax::Script { jsx }));
            }
        }
        per_round.push(round.elapsed().as_secs_f64() * 1e9 / bytes as f64);
        if let (Some(a), Some(b)) = (cpu_ns(), cpu0) {
            cpu_per_round.push((a - b) / bytes as f64);
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let summary = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        match (v.first(), v.get(v.len() / 2)) {
            (Some(min), Some(median)) => format!("min {min:.3} median {median:.3}"),
            _ => "n/a".to_owned(),
        }
    };
    println!(
        "{} files, {} bytes x 2 readings, {rounds} rounds, {wall:.2} s: \
         ns/byte wall {}; CPU {}",
        files.len(),
        bytes / 2,
        summary(per_round),
        summary(cpu_per_round)
    );
}
