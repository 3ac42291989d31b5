//! Whether a file ends its statements with `;`: the statements a fix writes follow it (a
//! `;` in a file without them fails a `semi: never` lint such as `@stylistic/semi`).

use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;

/// Counts the statements that can end with `;`, with and without one.
#[derive(Default)]
struct Semicolons<'s> {
    src: &'s str,
    with: usize,
    without: usize,
}

impl<'a> Visit<'a> for Semicolons<'_> {
    fn visit_statement(&mut self, it: &Statement<'a>) {
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
            let text = self.src.get(span.start as usize..span.end as usize);
            match text.map(|t| t.trim_end().ends_with(';')) {
                Some(true) => self.with += 1,
                Some(false) => self.without += 1,
                None => {}
            }
        }
        walk::walk_statement(self, it);
    }
}

/// Whether the program's statements end with `;` (most of them; a file with no such
/// statement does).
pub(super) fn used(src: &str, program: &Program<'_>) -> bool {
    let mut s = Semicolons {
        src,
        ..Semicolons::default()
    };
    s.visit_program(program);
    s.with >= s.without
}
