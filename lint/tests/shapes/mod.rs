//! Deeply nested inputs of every shape a parser recurses on (issue 19), generated at any
//! depth: `lint/tests/robust.rs` lints each just under and over the depth limit, and the CLI
//! and language-server tests feed them to the binary. Each file also subscribes to a removed
//! event, so a file that was parsed reports ML001 and one refused reports ML009.

/// One shape: a file name (its extension picks the front end) and the file at depth `n`.
pub struct Shape {
    pub name: &'static str,
    pub make: fn(usize) -> String,
}

use mirrorless_lint::frontend::depth::{MAX_DEPTH, Syntax, estimate};

/// The shallower and the deeper estimate of `shape` at depth `n` (for scripts, the JSX and the
/// plain reading: a file is retried as the other; the same for Rust).
pub fn readings(shape: &Shape, n: usize) -> (usize, usize) {
    let text = (shape.make)(n);
    if shape.name.ends_with(".rs") {
        let d = estimate(&text, Syntax::Rust).depth;
        (d, d)
    } else {
        let plain = estimate(&text, Syntax::Script { jsx: false }).depth;
        let jsx = estimate(&text, Syntax::Script { jsx: true }).depth;
        (plain.min(jsx), plain.max(jsx))
    }
}

/// A depth (within 2 %) just past the limit: `shape` at it is estimated deeper than
/// [`MAX_DEPTH`] in both readings, so it is refused, not parsed. The deep-code tests of the
/// binary feed this, not ten times the limit (issue #32 item 5: the refusal is the same, the
/// files a fifth of the size or less).
#[allow(dead_code)] // the binary's tests use it; `robust.rs` goes further past the limit
pub fn just_over(shape: &Shape) -> usize {
    let per_thousand = readings(shape, 1_000).0.max(1);
    let mut n = 1_000 * (MAX_DEPTH + 1) / per_thousand;
    while readings(shape, n).0 <= MAX_DEPTH {
        n += n / 50 + 1;
    }
    n
}

pub const RS_SUB: &str = "fn g() { bus.on(\"agent/turn-start\", h); }\n";
pub const TS_SUB: &str = "bus.on('agent/turn-start', h);\n";

fn rs(body: String) -> String {
    format!("{RS_SUB}fn f() {{ let x = {body}; }}\n")
}

fn rs_item(item: String) -> String {
    format!("{RS_SUB}{item}\n")
}

fn ts(body: String) -> String {
    format!("{TS_SUB}const x = {body};\n")
}

/// `operand / ((…0…))`, the parentheses `n` deep.
fn divided(operand: &str, n: usize) -> String {
    format!("{operand} / {}", wrap("(", "0", ")", n))
}

fn wrap(open: &str, inner: &str, close: &str, n: usize) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

/// The shapes of Rust code.
pub const RUST: &[Shape] = &[
    Shape {
        name: "closures.rs",
        make: |n| rs(format!("{}0", "|a, b| ".repeat(n))),
    },
    Shape {
        name: "move-closures.rs",
        make: |n| rs(format!("{}0", "move |a, b| ".repeat(n))),
    },
    Shape {
        name: "unit-closures.rs",
        make: |n| rs(format!("{}0", "|| ".repeat(n))),
    },
    Shape {
        name: "typed-closures.rs",
        make: |n| rs(wrap("|a: u8, b: u8| -> u8 { ", "0", " }", n)),
    },
    Shape {
        name: "generics.rs",
        make: |n| rs_item(format!("type T = {};", wrap("A<x, ", "u8", ">", n))),
    },
    Shape {
        name: "fn-generics.rs",
        make: |n| rs_item(format!("type T = {};", wrap("A<fn() -> B, ", "u8", ">", n))),
    },
    Shape {
        name: "refs.rs",
        make: |n| rs_item(format!("type T = {}u8;", "&".repeat(n))),
    },
    Shape {
        name: "tuples.rs",
        make: |n| rs_item(format!("type T = {};", wrap("(u8, ", "u8", ")", n))),
    },
    Shape {
        name: "not.rs",
        make: |n| rs(format!("{}a", "!".repeat(n))),
    },
    Shape {
        name: "neg.rs",
        make: |n| rs(format!("{}a", "- ".repeat(n))),
    },
    Shape {
        name: "deref.rs",
        make: |n| rs(format!("{}a", "*".repeat(n))),
    },
    Shape {
        name: "try.rs",
        make: |n| rs(format!("a{}", "?".repeat(n))),
    },
    Shape {
        name: "casts.rs",
        make: |n| rs(format!("a{}", " as u8".repeat(n))),
    },
    Shape {
        name: "fields.rs",
        make: |n| rs(format!("a{}", ".0".repeat(n))),
    },
    Shape {
        name: "chain.rs",
        make: |n| rs(format!("a{}", ".b(1, 2)".repeat(n))),
    },
    Shape {
        name: "strings.rs",
        make: |n| rs(format!("{}a", "a + \",\" + ".repeat(n))),
    },
    Shape {
        name: "parens.rs",
        make: |n| rs(wrap("(", "1", ")", n)),
    },
    Shape {
        name: "calls.rs",
        make: |n| rs(wrap("f(1, ", "1", ")", n)),
    },
    Shape {
        name: "blocks.rs",
        make: |n| rs(wrap("{ ", "1", " }", n)),
    },
    Shape {
        name: "ifs.rs",
        make: |n| {
            rs(format!(
                "if a {{ 1 }}{} else {{ 1 }}",
                " else if a { 1 }".repeat(n)
            ))
        },
    },
    Shape {
        name: "matches.rs",
        make: |n| rs(wrap("match a { _ => ", "1", " }", n)),
    },
];

/// The shapes of TypeScript and JavaScript code.
pub const SCRIPT: &[Shape] = &[
    Shape {
        name: "arrows.ts",
        make: |n| ts(format!("{}0", "(a, b) => ".repeat(n))),
    },
    Shape {
        name: "bare-arrows.ts",
        make: |n| ts(format!("{}0", "a => ".repeat(n))),
    },
    Shape {
        name: "not.ts",
        make: |n| ts(format!("{}a", "!".repeat(n))),
    },
    Shape {
        name: "typeof.ts",
        make: |n| ts(format!("{}a", "typeof ".repeat(n))),
    },
    Shape {
        name: "void.js",
        make: |n| ts(format!("{}a", "void ".repeat(n))),
    },
    Shape {
        name: "new.ts",
        make: |n| ts(format!("{}A", "new ".repeat(n))),
    },
    Shape {
        name: "ternaries.ts",
        make: |n| ts(format!("{}0", "a ? b : ".repeat(n))),
    },
    Shape {
        name: "ternary-then.ts",
        make: |n| ts(format!("{}0{}", "a ? (".repeat(n), ") : b".repeat(n))),
    },
    Shape {
        name: "generics.ts",
        make: |n| format!("{TS_SUB}let x: {};\n", wrap("A<x, ", "u", ">", n)),
    },
    Shape {
        name: "fn-generics.ts",
        make: |n| format!("{TS_SUB}let x: {};\n", wrap("A<(a) => b, ", "u", ">", n)),
    },
    Shape {
        name: "types.ts",
        make: |n| format!("{TS_SUB}let x: {};\n", wrap("{ a: ", "u", " }", n)),
    },
    Shape {
        name: "unions.ts",
        make: |n| format!("{TS_SUB}let x: {};\n", wrap("(a | ", "u", ")", n)),
    },
    Shape {
        name: "conditional.ts",
        make: |n| format!("{TS_SUB}type T = {}u;\n", "A extends B ? C : ".repeat(n)),
    },
    Shape {
        name: "templates.ts",
        make: |n| ts(wrap("`a, ${", "0", "}`", n)),
    },
    Shape {
        name: "jsx.tsx",
        make: |n| ts(wrap("<a>, ", "", "</a>", n)),
    },
    Shape {
        name: "jsx-attrs.jsx",
        make: |n| ts(wrap("<a b=\")\">)", "", "</a>", n)),
    },
    Shape {
        name: "jsx-containers.tsx",
        make: |n| ts(wrap("<a>{", "0", "}</a>", n)),
    },
    Shape {
        name: "strings.ts",
        make: |n| ts(format!("{}a", "a + \",\" + ".repeat(n))),
    },
    Shape {
        name: "string-parens.ts",
        make: |n| {
            ts(format!(
                "(a) => {}0{}",
                "')' + ((a) => ".repeat(n),
                ")".repeat(n)
            ))
        },
    },
    Shape {
        name: "regex.ts",
        make: |n| ts(format!("{}a", "a + /)/ + ".repeat(n))),
    },
    Shape {
        name: "chain.ts",
        make: |n| ts(format!("a{}", ".b(1, 2)".repeat(n))),
    },
    Shape {
        name: "optional.ts",
        make: |n| ts(format!("a{}", "?.b".repeat(n))),
    },
    Shape {
        name: "objects.ts",
        make: |n| ts(wrap("{ a: 1, b: ", "0", " }", n)),
    },
    Shape {
        name: "arrays.js",
        make: |n| ts(wrap("[1, ", "0", "]", n)),
    },
    Shape {
        name: "spread.ts",
        make: |n| ts(wrap("[...", "a", "]", n)),
    },
    Shape {
        name: "calls.ts",
        make: |n| ts(wrap("f(1, ", "0", ")", n)),
    },
    Shape {
        name: "functions.ts",
        make: |n| ts(wrap("function () { return ", "0", " }", n)),
    },
    Shape {
        name: "blocks.ts",
        make: |n| format!("{TS_SUB}{}\n", wrap("if (a) { ", "b;", " }", n)),
    },
    // A `}` that ends an operand (a class or function expression, an object literal, a
    // template, a JSX element) is followed by a division, not a regular expression: the
    // parentheses after the `/` nest.
    Shape {
        name: "class-division.ts",
        make: |n| ts(divided("class {}", n)),
    },
    Shape {
        name: "class-extends-division.ts",
        make: |n| ts(divided("class extends A<B> implements C<{ a: D }> {}", n)),
    },
    Shape {
        name: "function-division.ts",
        make: |n| ts(divided("function () {}", n)),
    },
    Shape {
        name: "typed-function-division.ts",
        make: |n| ts(divided("function (): { a: T } { return 1 }", n)),
    },
    Shape {
        name: "generic-function-division.ts",
        make: |n| ts(divided("function <T>(a: T): Promise<T> { return a }", n)),
    },
    Shape {
        name: "async-function-division.js",
        make: |n| ts(divided("async function* g() {}", n)),
    },
    Shape {
        name: "arrow-class-division.ts",
        make: |n| ts(divided("a => class {}", n)),
    },
    Shape {
        name: "new-class-division.ts",
        make: |n| ts(divided("new class { m() {} }()", n)),
    },
    Shape {
        name: "object-division.ts",
        make: |n| ts(divided("{ m() {}, a: {} }", n)),
    },
    Shape {
        name: "template-division.ts",
        make: |n| ts(divided("`${ {} }`", n)),
    },
    Shape {
        name: "interp-class-division.ts",
        make: |n| ts(format!("`${{{}}}`", divided("class {}", n))),
    },
    Shape {
        name: "jsx-division.tsx",
        make: |n| ts(divided("<a>{}</a>", n)),
    },
    Shape {
        name: "jsx-attr-division.tsx",
        make: |n| ts(divided("<a b={function () {}} />", n)),
    },
    Shape {
        name: "class-division-chain.ts",
        make: |n| ts(wrap("(class {} / ", "0", ")", n)),
    },
    // Chains spread over lines without semicolons: the line break does not end the
    // statement (the next line continues the expression), so every level still counts.
    Shape {
        name: "lines-plus.ts",
        make: |n| ts(format!("a{}", "\n+ a".repeat(n))),
    },
    Shape {
        name: "lines-trailing-plus.ts",
        make: |n| ts(format!("{}a", "a +\n".repeat(n))),
    },
    Shape {
        name: "lines-dots.ts",
        make: |n| ts(format!("a{}", "\n.b".repeat(n))),
    },
    Shape {
        name: "lines-optional.ts",
        make: |n| ts(format!("a{}", "\n?.b".repeat(n))),
    },
    Shape {
        name: "lines-calls.ts",
        make: |n| ts(format!("f{}", "\n(1)".repeat(n))),
    },
    Shape {
        name: "lines-index.js",
        make: |n| ts(format!("f{}", "\n[1]".repeat(n))),
    },
    Shape {
        name: "lines-tagged.ts",
        make: |n| ts(format!("f{}", "\n`a`".repeat(n))),
    },
    Shape {
        name: "lines-ternaries.ts",
        make: |n| ts(format!("a{}", "\n? b\n: a".repeat(n))),
    },
    Shape {
        name: "lines-ifs.ts",
        make: |n| format!("{TS_SUB}{}b\n", "if (a)\n".repeat(n)),
    },
    Shape {
        name: "lines-else-ifs.ts",
        make: |n| format!("{TS_SUB}if (a) b{}\n", "\nelse if (a) b".repeat(n)),
    },
    // A `;` before `else` does not end the `if`: the chain nests.
    Shape {
        name: "semicolon-else-ifs.ts",
        make: |n| format!("{TS_SUB}if (a) b;{}\n", " else if (a) b;".repeat(n)),
    },
];

/// Flat code of one statement a line and no semicolons (the style upstream's eslint
/// enforces): `n` lines of it and a subscription, parsed whatever `n` (issue 19).
pub const FLAT: &[Shape] = &[
    Shape {
        name: "assign.ts",
        make: |n| flat("a = b", n),
    },
    Shape {
        name: "call.ts",
        make: |n| flat("foo(x)", n),
    },
    Shape {
        name: "const.ts",
        make: |n| flat("const x = 1", n),
    },
    Shape {
        name: "increment.js",
        make: |n| flat("x++", n),
    },
    Shape {
        name: "members.ts",
        make: |n| flat("this.a.b = c.d", n),
    },
    Shape {
        name: "arrow.ts",
        make: |n| flat("const f = (a) => a + 1", n),
    },
    Shape {
        name: "object.ts",
        make: |n| flat("x = { a: 1, b: [1, 2] }", n),
    },
    Shape {
        name: "template.ts",
        make: |n| flat("x = `a${b}c`", n),
    },
    Shape {
        name: "division.ts",
        make: |n| flat("x = a / b", n),
    },
    Shape {
        name: "regex.js",
        make: |n| flat("x = /ab+c/.test(s)", n),
    },
    Shape {
        name: "ternary.ts",
        make: |n| flat("x = a ? b : c", n),
    },
    Shape {
        name: "return.ts",
        make: |n| flat("function f() { return a / b }", n),
    },
    Shape {
        name: "generic.ts",
        make: |n| flat("let m: Map<string, number[]> = new Map()", n),
    },
    Shape {
        name: "fields.ts",
        make: |n| {
            format!(
                "class C {{\n{}}}\n{TS_SUB}",
                "  a: string = 'b'\n".repeat(n)
            )
        },
    },
];

/// `n` lines of `line`, then the subscription, none ended by `;`.
fn flat(line: &str, n: usize) -> String {
    format!(
        "{}{}",
        format!("{line}\n").repeat(n),
        TS_SUB.replace(';', "")
    )
}

/// Markdown: block quotes and lists nest in pulldown-cmark's tree, and code fenced inside them
/// goes to the code front ends.
pub const MARKDOWN: &[Shape] = &[
    Shape {
        name: "quotes.md",
        make: |n| format!("```ts\n{TS_SUB}```\n\n{}text\n", "> ".repeat(n)),
    },
    Shape {
        name: "lists.md",
        make: |n| format!("```ts\n{TS_SUB}```\n\n{}text\n", "- ".repeat(n)),
    },
    Shape {
        name: "ordered.md",
        make: |n| format!("```ts\n{TS_SUB}```\n\n{}text\n", "1. ".repeat(n)),
    },
    Shape {
        name: "emphasis.md",
        make: |n| {
            format!(
                "```ts\n{TS_SUB}```\n\n{}a{}\n",
                "*_".repeat(n),
                "_*".repeat(n)
            )
        },
    },
    Shape {
        name: "links.md",
        make: |n| format!("```ts\n{TS_SUB}```\n\n{}\n", wrap("[", "a", "](b)", n)),
    },
    Shape {
        name: "fenced-in-quotes.md",
        make: |n| {
            let q = "> ".repeat(n.min(2_000));
            let deep = ts(format!("{}0", "(a, b) => ".repeat(n)));
            let body: String = deep.lines().map(|l| format!("{q}{l}\n")).collect();
            format!("{q}```ts\n{body}{q}```\n")
        },
    },
];
