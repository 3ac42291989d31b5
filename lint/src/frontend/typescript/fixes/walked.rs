//! What the fixer reads of the whole program, read in one walk: the references of each name
//! ([`References`]), the file's semicolon style ([`semicolons`]), the `const` copies of a
//! session's log ([`typed_data::LogCopies`]) and whether a listener leaves a parameter
//! unannotated ([`typed_data::unannotated_listener`]).
//!
//! Each was a walk of its own, the last three made the first time a fix asked: a walk of a
//! 47 kB test file costs 20–60 µs, and a file with subscriptions to rewrite asked for all of
//! them (issue 32 item 1). Each part notes the nodes it reads and the one walk goes on into
//! everything they hold, so each finds what a walk of its own found (`walked::tests`).

use super::semicolons;
use super::typed_data::{self, LogCopies};
use crate::frontend::typescript::references::References;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};

/// What one walk of a program found.
pub(super) struct Walked<'a> {
    /// Where each name is referenced.
    pub(super) refs: References<'a>,
    /// The statements that can end with `;`, with and without one.
    pub(super) semicolons: semicolons::Count,
    /// The `const` names bound to a session's log or a copy of it.
    pub(super) log_copies: LogCopies,
    /// Whether an `X.on(…)` listener leaves a parameter unannotated.
    pub(super) unannotated_listener: bool,
}

/// Walks `program` (parsed from `src`) once.
pub(super) fn walk<'a>(src: &str, program: &Program<'a>) -> Walked<'a> {
    let mut w = Walk {
        src,
        found: Walked {
            refs: References::default(),
            semicolons: semicolons::Count::default(),
            log_copies: LogCopies::default(),
            unannotated_listener: false,
        },
    };
    w.visit_program(program);
    w.found
}

struct Walk<'s, 'a> {
    src: &'s str,
    found: Walked<'a>,
}

impl<'a> Visit<'a> for Walk<'_, 'a> {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.found.refs.note_identifier_reference(it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        // When the references took it all, what is inside is an identifier and a property
        // name: no statement, call or declaration the other parts read.
        if !self.found.refs.note_static_member(it) {
            walk::walk_static_member_expression(self, it);
        }
    }

    fn visit_ts_qualified_name(&mut self, it: &TSQualifiedName<'a>) {
        if !self.found.refs.note_qualified_name(it) {
            walk::walk_ts_qualified_name(self, it);
        }
    }

    fn visit_statement(&mut self, it: &Statement<'a>) {
        self.found.semicolons.note(self.src, it);
        walk::walk_statement(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.found.unannotated_listener |= typed_data::unannotated_listener(it);
        walk::walk_call_expression(self, it);
    }

    fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
        self.found.log_copies.note(it);
        walk::walk_variable_declaration(self, it);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_span::SourceType;

    /// The one walk finds what each part's walk of its own finds: on every TypeScript and
    /// JavaScript fixture of the linter, and on generated programs that nest statements,
    /// calls, listeners and copies of the log inside member chains, qualified names, arrows,
    /// classes and each other.
    #[test]
    fn one_walk_finds_what_each_walk_alone_finds() {
        let mut texts: Vec<(String, String)> = crate::test_fixtures::fixture_texts("", |p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| crate::frontend::typescript::EXTENSIONS.contains(&e))
        });
        let mut rng = Rng(0x5e3d_1c0b_a7f2_9e41);
        const PIECES: &[&str] = &[
            "const events = [...agent.session.events]\n",
            "const e2 = Array.from(events);\n",
            "let l = agent.session.events\n",
            "bus.on('session/event', (s, e) => { use(e.data.turn) })\n",
            "bus.once('x', function (a: A, b) { return a });\n",
            "ctx.on('agent/turn-end', (a: Agent, e: E) => e)\n",
            "ns.inner.call(() => { const c = [...x.session.events]; return c })\n",
            "type T = Ns.Member | Other.Thing;\n",
            "class K { m() { if (a) { throw err } else { return Ev.A } } }\n",
            "for (const k of Object.values(Ev)) { if (k) break; else continue }\n",
            "x = a.b.c(d.e, () => f.g.on('y', (p) => p))\n",
        ];
        for _ in 0..300 {
            let mut src = String::new();
            for _ in 0..1 + rng.below(6) {
                let piece = rng.pick(PIECES);
                // Some pieces nested inside an arrow or a block, some at the top level.
                src.push_str(&match rng.below(3) {
                    0 => format!("wrap(() => {{ {piece} }});\n"),
                    1 => format!("{{ {piece} }}\n"),
                    _ => piece.to_string(),
                });
            }
            texts.push(("generated.ts".to_owned(), src));
        }
        let mut seen = (0, 0, 0);
        for (path, src) in &texts {
            let alloc = Allocator::default();
            let st = SourceType::from_path(path).unwrap_or_else(|_| SourceType::tsx());
            let ret = Parser::new(&alloc, src, st).parse();
            if ret.panicked {
                continue;
            }
            let one = walk(src, &ret.program);
            assert_eq!(one.refs, References::of(&ret.program), "{path}");
            assert_eq!(
                one.semicolons.used(),
                semicolons::used(src, &ret.program),
                "{path}"
            );
            let (copies, unannotated) = typed_data::walked_alone(&ret.program);
            assert_eq!(one.log_copies, copies, "{path}");
            assert_eq!(one.unannotated_listener, unannotated, "{path}");
            seen.0 += usize::from(one.semicolons.used());
            seen.1 += usize::from(one.log_copies != LogCopies::default());
            seen.2 += usize::from(one.unannotated_listener);
        }
        // Each part found something somewhere: the comparison compared something.
        assert!(seen.0 > 20 && seen.1 > 20 && seen.2 > 20, "{seen:?}");
    }
}
