//! Whether a file ends its statements with `;`: the statements a fix writes follow it (a
//! `;` in a file without them fails a `semi: never` lint such as `@stylistic/semi`).

use oxc_ast::ast::*;
use oxc_span::GetSpan;

/// The statements that can end with `;`, with and without one. Counted in the fixer's one walk
/// of the whole program ([`super::walked`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Count {
    with: usize,
    without: usize,
}

impl Count {
    /// Counts `it` (not the statements inside it: the walk reaches those).
    pub(super) fn note(&mut self, src: &str, it: &Statement<'_>) {
        let counts = matches!(
            it,
            Statement::ExpressionStatement(_)
                | Statement::VariableDeclaration(_)
                | Statement::ReturnStatement(_)
                | Statement::ThrowStatement(_)
                | Statement::BreakStatement(_)
                | Statement::ContinueStatement(_)
        );
        if counts {
            let span = it.span();
            let text = src.get(span.start as usize..span.end as usize);
            match text.map(|t| t.trim_end().ends_with(';')) {
                Some(true) => self.with += 1,
                Some(false) => self.without += 1,
                None => {}
            }
        }
    }

    /// Whether the program's statements end with `;` (most of them; a file with no such
    /// statement does).
    pub(super) fn used(self) -> bool {
        self.with >= self.without
    }
}

/// [`Count`] of a program by a walk of its own: the one walk's oracle.
#[cfg(test)]
pub(super) fn used(src: &str, program: &Program<'_>) -> bool {
    use oxc_ast_visit::{Visit, walk};
    struct Semicolons<'s> {
        src: &'s str,
        count: Count,
    }
    impl<'a> Visit<'a> for Semicolons<'_> {
        fn visit_statement(&mut self, it: &Statement<'a>) {
            self.count.note(self.src, it);
            walk::walk_statement(self, it);
        }
    }
    let mut s = Semicolons {
        src,
        count: Count::default(),
    };
    s.visit_program(program);
    s.count.used()
}
