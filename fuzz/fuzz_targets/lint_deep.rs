//! Deep code of any shape (issue 19): the input is one link of a chain — its first byte picks
//! the language and a prefix, the rest is repeated 30,000 times between the prefix and the
//! closing brackets the link opened — and the whole is linted. A shape the depth estimate
//! under-counts overflows the stack here (a crash); every other ends in findings, ML009 at
//! worst.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mirrorless_lint::config::Config;
use mirrorless_lint::{Options, lint};

const LINKS: usize = 30_000;

/// The file and what comes before the chain: a plain expression, and each operand whose `}`
/// a scanner could take for a statement's end (a `/` after it divides; read as a regular
/// expression, it would hide the chain).
const PREFIXES: &[(&str, &str)] = &[
    ("input.rs", "fn f() { let x = "),
    ("input.ts", "const x = "),
    ("input.tsx", "const x = "),
    ("input.ts", "const x = class {} / "),
    ("input.ts", "const x = class A<T> extends B<T> {} / "),
    ("input.ts", "const x = function (): { a: T } {} / "),
    ("input.js", "const x = async function* () {} / "),
    ("input.ts", "const x = a => class {} / "),
    ("input.ts", "const x = { m() {} } / "),
    ("input.ts", "export default {} / "),
    ("input.ts", "const x = `${ {} }` / "),
    ("input.tsx", "const x = <a b={function () {}}>{}</a> / "),
    ("input.ts", "if (a) {} / "),
    // Statements ended by line breaks, not `;`: a link with a line break in it must not end
    // the chain's count unless the parser would end the statement there too.
    ("input.ts", "let y = a\nfoo(y)\nconst x = "),
];

fuzz_target!(|data: &[u8]| {
    let Some((&lang, link)) = data.split_first() else {
        return;
    };
    if link.is_empty() || link.len() > 48 {
        return;
    }
    let Ok(link) = std::str::from_utf8(link) else {
        return;
    };
    let (name, prefix) = PREFIXES[usize::from(lang) % PREFIXES.len()];
    // Close what each link opened, so the chain can be valid code.
    let mut closers = String::new();
    for c in link.chars().rev() {
        match c {
            '(' => closers.push(')'),
            '[' => closers.push(']'),
            '{' => closers.push('}'),
            '<' => closers.push('>'),
            _ => {}
        }
    }
    let text = format!(
        "{prefix}{}0{}; }}\n",
        link.repeat(LINKS),
        closers.repeat(LINKS)
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, &text).expect("write");
    let report = lint(&Options {
        paths: vec![path],
        jobs: Some(1),
        follow: false,
        config: Config {
            root: dir.path().to_path_buf(),
            ..Config::default()
        },
    });
    assert!(report.errors.is_empty(), "{:?}", report.errors);
});
