//! Deeply nested source must not overflow the stack. syn and oxc parse recursively and every
//! visitor (and syn's `Drop`) recurses once per level of the syntax tree, so a file with a few
//! thousand nested parentheses, arrays, `if`s or generic arguments — or a long method chain,
//! which nests just as deeply in the tree — would abort the whole run.
//!
//! [`estimate`] bounds the tree's depth from the text alone (one linear scan, no parse), and
//! [`guarded`] runs a front end's parse-and-visit on a thread whose stack is sized for that
//! depth. A file deeper than [`MAX_DEPTH`] is not parsed at all: the front end reports it as
//! unparsed (ML009) and scans it lexically, like a syntax error, and the run goes on. So is a
//! file larger than its front end's size limit ([`bounded_parse`]): a syntax tree costs tens to
//! hundreds of bytes per byte of source, the lexical scan nothing.

/// The deepest estimated nesting a file may have and still be parsed. Hand-written code stays
/// below a few hundred; the deepest generated code we know of below a few thousand.
pub const MAX_DEPTH: usize = 20_000;

/// Stack bytes per level of estimated nesting: twice the most measured on the costliest
/// construct (nested blocks `{{…}}` in syn; nested arrays, generics and `if`s cost less) — see
/// `docs/benchmarks/lint.md`. Debug frames are several times larger than release frames.
const STACK_PER_LEVEL: usize = if cfg!(debug_assertions) {
    64 * 1024
} else {
    16 * 1024
};

/// Up to this estimate, the calling thread's stack is enough: 1 MiB of nesting, half of the
/// 2 MiB every Rust thread has.
const SHALLOW: usize = (1 << 20) / STACK_PER_LEVEL;

/// Stack for everything but the nesting itself.
const STACK_BASE: usize = 8 << 20;

/// How deeply a text nests, estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nesting {
    /// An upper bound on the depth of the syntax tree.
    pub depth: usize,
    /// The byte offset where the estimate first reached its maximum.
    pub at: usize,
}

/// An upper bound on the nesting depth of the syntax tree of `src`, from its text alone.
///
/// Each open bracket (`(`, `[`, `{`) is one level, and within a level every word, punctuation
/// character or closed bracket group since the last `,` or `;` counts as one more: operator
/// chains, method and index chains, `else if` chains, prefix operators (`!!x`, `typeof typeof
/// x`) and generic arguments nest in the tree without nesting brackets. Strings and comments are counted too, which can only
/// over-estimate.
pub fn estimate(src: &str) -> Nesting {
    let mut counters: Vec<usize> = vec![0];
    let mut total = 1usize;
    let mut max = Nesting { depth: 1, at: 0 };
    let mut in_word = false;
    for (i, &b) in src.as_bytes().iter().enumerate() {
        let word = b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
        if word {
            if !in_word {
                in_word = true;
                bump(&mut counters, &mut total);
            }
            if total > max.depth {
                max = Nesting {
                    depth: total,
                    at: i,
                };
            }
            continue;
        }
        in_word = false;
        match b {
            b'(' | b'[' | b'{' => {
                counters.push(0);
                total += 1;
            }
            b')' | b']' | b'}' => {
                if counters.len() > 1
                    && let Some(top) = counters.pop()
                {
                    total -= 1 + top;
                    // The group is one more piece of the enclosing level: `a[0][0]…` and
                    // `f()()…` nest in the tree without nesting brackets.
                    bump(&mut counters, &mut total);
                }
            }
            b',' | b';' => {
                if let Some(top) = counters.last_mut() {
                    total -= *top;
                    *top = 0;
                }
            }
            b if b.is_ascii_whitespace() => {}
            _ => bump(&mut counters, &mut total),
        }
        if total > max.depth {
            max = Nesting {
                depth: total,
                at: i,
            };
        }
    }
    max
}

fn bump(counters: &mut [usize], total: &mut usize) {
    if let Some(top) = counters.last_mut() {
        *top += 1;
        *total += 1;
    }
}

/// Why a file was not parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooDeep(pub String);

/// Runs `parse` (a front end's parse, visit and drop of the tree) with a stack large enough for
/// a tree `depth` levels deep ([`estimate`]): on the calling thread when the file is shallow,
/// else on a thread of its own. Refuses files deeper than [`MAX_DEPTH`], and turns a panic of
/// the parser into an error, so one file never ends the run.
pub fn guarded<R: Send>(depth: usize, parse: impl FnOnce() -> R + Send) -> Result<R, TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep(format!(
            "nested too deeply to parse (an estimated {depth} levels; the limit is {MAX_DEPTH})"
        )));
    }
    let panicked = |_| TooDeep("the parser failed on this file".to_owned());
    if depth <= SHALLOW {
        return std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse)).map_err(panicked);
    }
    let stack = STACK_BASE + depth * STACK_PER_LEVEL;
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("mirrorless-deep-parse".to_owned())
            .stack_size(stack)
            .spawn_scoped(scope, parse)
            .map_err(|e| {
                TooDeep(format!(
                    "nested too deeply to parse with the stack available ({} MiB: {e})",
                    stack >> 20
                ))
            })?;
        worker.join().map_err(panicked)
    })
}

/// Parses `src` with `parse` within bounds: a file over `max_bytes` or nested deeper than
/// [`MAX_DEPTH`] is refused with the offset and message of an unparsed file, and a deep one is
/// parsed on a stack sized for it ([`guarded`]).
pub fn bounded_parse<R: Send>(
    src: &str,
    max_bytes: usize,
    parse: impl FnOnce() -> Result<R, (usize, String)> + Send,
) -> Result<R, (usize, String)> {
    if src.len() > max_bytes {
        return Err((
            0,
            format!(
                "too large to parse ({} MiB; the limit is {} MiB)",
                src.len() >> 20,
                max_bytes >> 20
            ),
        ));
    }
    let nesting = estimate(src);
    guarded(nesting.depth, parse).unwrap_or_else(|TooDeep(message)| Err((nesting.at, message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_and_chains_count() {
        let depth = |s: &str| estimate(s).depth;
        assert_eq!(depth(""), 1);
        assert!(depth(&"(".repeat(500)) > 500);
        assert!(depth(&".b()".repeat(500)) > 500);
        assert!(depth(&format!("a{}", "[0]".repeat(500))) > 500);
        assert!(depth(&format!("f{}", "()".repeat(500))) > 500);
        assert!(depth(&"typeof ".repeat(500)) > 500);
        assert!(
            depth(&format!(
                "type T = {}u8{};",
                "A<".repeat(500),
                ">".repeat(500)
            )) > 500
        );
        // Separators reset a level: a long flat list is shallow.
        assert!(depth(&format!("[{}]", "1, ".repeat(10_000))) < 10);
        assert_eq!(estimate("f(1, (2))").at, 6);
    }

    #[test]
    fn too_deep_is_refused_and_panics_are_caught() {
        assert!(guarded(MAX_DEPTH + 1, || ()).is_err());
        assert_eq!(guarded(5, || 7), Ok(7));
        assert_eq!(guarded(5_000, || 7), Ok(7));
        assert!(guarded(5, || panic!("boom")).is_err());
    }
}
