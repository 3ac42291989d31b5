//! Deeply nested source must not overflow the stack. syn and oxc parse recursively and every
//! visitor (and syn's `Drop`) recurses once per level of the syntax tree, so a file with a few
//! thousand nested parentheses, arrays, `if`s or generic arguments — or a long method chain,
//! which nests just as deeply in the tree — would abort the whole run.
//!
//! [`estimate`] bounds the tree's depth from the file's tokens (one linear scan, no parse), and
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
pub(crate) const SHALLOW: usize = (1 << 20) / STACK_PER_LEVEL;

/// Stack for everything but the nesting itself.
const STACK_BASE: usize = 8 << 20;

thread_local! {
    /// The calling thread's stack in bytes when it is known to be larger than a Rust thread's
    /// default (a thread of the analysing pool: [`set_thread_stack`]); 0 when it is not.
    static THREAD_STACK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Records that the calling thread has a stack of `bytes` (a thread of the analysing pool, as
/// it starts): a file that [`guarded`] would parse on a thread of that stack is then parsed
/// on this one, with no thread of its own (issue 32 item 1).
pub fn set_thread_stack(bytes: usize) {
    THREAD_STACK.with(|s| s.set(bytes));
}

/// The deepest estimate parsed on the calling thread: [`SHALLOW`], or as deep as a thread of
/// its own would be given when the calling thread's stack is that large.
pub(crate) fn shallow_limit() -> usize {
    let stack = THREAD_STACK.with(std::cell::Cell::get);
    SHALLOW.max(stack.saturating_sub(STACK_BASE) / STACK_PER_LEVEL)
}

mod rust;
mod script;
mod tally;

/// How deeply a text nests, estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nesting {
    /// An upper bound on the depth of the syntax tree.
    pub depth: usize,
    /// The byte offset where the estimate first reached its maximum.
    pub at: usize,
}

/// The language a text is estimated in: the tokens that open a level differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Rust, as syn reads it (the text syn is given: BOM and shebang already blanked).
    Rust,
    /// TypeScript or JavaScript, as oxc reads it; `jsx` when `<` may open an element.
    Script {
        /// Whether the file is parsed with JSX.
        jsx: bool,
    },
}

/// An upper bound on the nesting depth of the syntax tree of `src`, from its tokens alone.
///
/// The text is tokenised as its parser tokenises it (Rust through proc-macro2, which syn
/// itself uses; TypeScript by a scanner that knows strings, comments, regular expressions,
/// template literals and JSX), so a bracket, `,` or `;` inside a string or comment never
/// counts. Each bracket group is one level; within a level every token since the last `,` or
/// `;` is one more (operator, method and `else if` chains and prefix operators nest in the
/// tree without brackets). In TypeScript a line break that ends a statement (automatic
/// semicolon insertion: the token before can end an expression, the one after cannot continue
/// it) is a `;`, so code without semicolons is as flat as with them. A separator ends only
/// what cannot span it: a `<` not yet closed by
/// a `>` (generic arguments, JSX) and a closure's `|` (Rust) are kept until the level's next
/// `;` or its closing bracket, so `A<x, A<x, …>>` and `|a, b| |a, b| …` count every level.
pub fn estimate(src: &str, syntax: Syntax) -> Nesting {
    match syntax {
        Syntax::Rust => rust::estimate(src),
        Syntax::Script { jsx } => script::estimate(src, jsx),
    }
}

/// Why a file was not parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooDeep(pub String);

/// Runs `parse` (a front end's parse, visit and drop of the tree) with a stack large enough for
/// a tree `depth` levels deep ([`estimate`]): on the calling thread when the file is shallow
/// (or its stack, [`set_thread_stack`], is as large as the file's thread would have), else on
/// a thread of its own. Refuses files deeper than [`MAX_DEPTH`], and turns a panic of
/// the parser into an error, so one file never ends the run.
pub fn guarded<R: Send>(depth: usize, parse: impl FnOnce() -> R + Send) -> Result<R, TooDeep> {
    if depth > MAX_DEPTH {
        return Err(TooDeep(format!(
            "nested too deeply to parse (an estimated {depth} levels; the limit is {MAX_DEPTH})"
        )));
    }
    if depth <= shallow_limit() {
        return caught(parse);
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
        worker.join().map_err(|_| panicked())
    })
}

/// Parses `src` with `parse` within bounds: a file over `max_bytes` or nested deeper than
/// [`MAX_DEPTH`] is refused with the offset and message of an unparsed file, and a deep one is
/// parsed on a stack sized for it ([`guarded`]).
pub fn bounded_parse<R: Send>(
    src: &str,
    max_bytes: usize,
    syntax: Syntax,
    parse: impl FnOnce() -> Result<R, (usize, String)> + Send,
) -> Result<R, (usize, String)> {
    too_large(src, max_bytes)?;
    let nesting = estimate(src, syntax);
    guarded(nesting.depth, parse).unwrap_or_else(|TooDeep(message)| Err((nesting.at, message)))
}

/// [`bounded_parse`] for Rust, reading `src`'s tokens once: proc-macro2's lexer reads them for
/// the estimate, and `parse` is given them (syn's `parse_str` is that lexer and a parse of its
/// tokens), with every span still valid. A file deep enough for a thread of its own is read
/// again there (the tokens cannot cross threads).
pub fn bounded_rust_parse<R: Send>(
    src: &str,
    max_bytes: usize,
    parse: impl FnOnce(
        Result<proc_macro2::TokenStream, proc_macro2::LexError>,
    ) -> Result<R, (usize, String)>
    + Send,
) -> Result<R, (usize, String)> {
    use std::str::FromStr;
    too_large(src, max_bytes)?;
    let stream = proc_macro2::TokenStream::from_str(src);
    let nesting = match &stream {
        Ok(tokens) => rust::estimate_stream(tokens.clone()),
        Err(_) => Nesting { depth: 1, at: 0 },
    };
    if nesting.depth <= shallow_limit() {
        // `guarded`'s shallow path, with the tokens read here.
        return caught(|| parse(stream))
            .unwrap_or_else(|TooDeep(message)| Err((nesting.at, message)));
    }
    drop(stream);
    // As `estimate` does: the tokens read here are not used.
    proc_macro2::extra::invalidate_current_thread_spans();
    guarded(nesting.depth, || {
        parse(proc_macro2::TokenStream::from_str(src))
    })
    .unwrap_or_else(|TooDeep(message)| Err((nesting.at, message)))
}

/// `parse` on the calling thread, a panic of the parser turned into an error.
fn caught<R>(parse: impl FnOnce() -> R) -> Result<R, TooDeep> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse)).map_err(|_| panicked())
}

/// Why a parse that panicked gave no tree.
fn panicked() -> TooDeep {
    TooDeep("the parser failed on this file".to_owned())
}

/// The error of an unparsed file when `src` is over `max_bytes`.
pub fn too_large(src: &str, max_bytes: usize) -> Result<(), (usize, String)> {
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_deep_is_refused_and_panics_are_caught() {
        assert!(guarded(MAX_DEPTH + 1, || ()).is_err());
        assert_eq!(guarded(5, || 7), Ok(7));
        assert_eq!(guarded(5_000, || 7), Ok(7));
        assert!(guarded(5, || panic!("boom")).is_err());
    }

    /// Issue 32 item 1: on a thread whose stack is as large as the one a deep file's thread
    /// would get, that file is parsed on the calling thread; on any other thread (the
    /// default), on a thread of its own; and a file deeper than the stack allows still gets
    /// one.
    #[test]
    fn a_large_stack_parses_deeper_files_in_place() {
        let here = || std::thread::current().id();
        let on_large = |depth: usize, stack: usize| {
            std::thread::Builder::new()
                .stack_size(stack)
                .spawn(move || {
                    set_thread_stack(stack);
                    let me = std::thread::current().id();
                    guarded(depth, move || std::thread::current().id() == me)
                })
                .expect("a thread")
                .join()
                .expect("no panic")
        };
        let deep = SHALLOW * 4;
        let stack = STACK_BASE + deep * STACK_PER_LEVEL;
        assert_eq!(on_large(deep, stack), Ok(true));
        assert_eq!(on_large(deep + 1, stack), Ok(false));
        let me = here();
        assert_eq!(guarded(deep, move || here() == me), Ok(false));
        assert_eq!(guarded(SHALLOW, move || here() == me), Ok(true));
    }
}
