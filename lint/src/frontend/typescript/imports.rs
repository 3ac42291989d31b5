//! The file's `import` declarations, and which of their names a fix leaves unused: a fix that
//! deletes or rewrites the only code naming an imported type or value also removes that
//! import specifier (the whole declaration when none is left), so `tsc --noUnusedLocals` and
//! eslint's `no-unused-vars` accept the fixed file.
//!
//! A specifier goes only when the fix is what leaves it unused: something named it, every
//! reference is inside code the fix deletes or replaces, the fix's new text does not name it,
//! and no JSDoc type that stays names it (`{Agent}`, `{@link Agent}`). Side-effect imports
//! (`import './x'`) have no names and are never touched; default and namespace imports follow
//! the same rule as named ones.
//!
//! Each fix is built alone, and must be right alone (the editor applies one). So:
//! - two fixes that each remove part of one declaration edit the separators between their
//!   specifiers; when together they would empty it their edits overlap, one is applied and the
//!   other waits for the next round, where it removes what is left, the whole declaration;
//! - a name only several fixes' code uses (two event-map entries naming one imported type) is
//!   removed by none of them; they claim it ([`crate::model::Claim`]) so that the last of them
//!   is applied a round after the others, and then it is the one leaving the name unused.
//!
//! A file that is a module only by its named imports (no export, no `import './x'`; not
//! `.mjs`/`.mts`) would become a script without them: its declarations global, its
//! `declare module 'x' { … }` blocks declarations instead of augmentations. So the last of its
//! import declarations becomes `export {};` rather than nothing, and the fixes that delete a
//! whole declaration of such a file are applied one per round (an exclusive claim).

use super::references::References;
use crate::frontend::OccurrenceFix;
use crate::model::{Claim, Edit};
use oxc_ast::ast::*;
use oxc_span::{GetSpan, Span};
use std::ops::Range;

fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

/// The import declarations of one program (top level only: the only place they can be).
#[derive(Debug, Default)]
pub(super) struct Imports {
    decls: Vec<Decl>,
    /// Whether only the named import declarations make the file a module (see the module
    /// documentation).
    module_by_imports: bool,
    /// Each JSDoc comment (`/** … */`) and the words inside its `{…}` type expressions.
    jsdoc: Vec<(Range<usize>, Vec<String>)>,
}

/// One `import … from '…'` declaration with at least one name.
#[derive(Debug)]
struct Decl {
    /// The whole statement.
    stmt: Range<usize>,
    /// Its specifiers in source order (a default one first, then a namespace or named ones).
    specs: Vec<Spec>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `import D from`
    Default,
    /// `import * as ns from`
    Namespace,
    /// `import { a, b as c } from`
    Named,
}

#[derive(Debug)]
struct Spec {
    /// The local name the file uses.
    local: String,
    /// The specifier's text (`b as c`, `* as ns`, `type A`).
    span: Range<usize>,
    kind: Kind,
}

/// An import name a fix leaves unused: its declaration and specifier indices.
type Unused = (usize, usize);

/// What a fix adds to remove the imports it leaves unused.
#[derive(Debug, Default)]
pub(super) struct Removal {
    /// The edits.
    pub edits: Vec<Edit>,
    /// The local names removed.
    pub names: Vec<String>,
    /// The claims that keep it out of a round with a fix it must not be applied with.
    pub claims: Vec<Claim>,
}

impl Imports {
    /// The import declarations and JSDoc comments of `program`, the file `path`.
    pub fn of(program: &Program<'_>, src: &str, path: &str) -> Imports {
        let mut decls = Vec::new();
        for stmt in &program.body {
            let Statement::ImportDeclaration(d) = stmt else {
                continue;
            };
            let Some(specifiers) = &d.specifiers else {
                continue;
            };
            let specs: Vec<Spec> = specifiers
                .iter()
                .map(|s| {
                    let (local, kind) = match s {
                        ImportDeclarationSpecifier::ImportSpecifier(s) => (&s.local, Kind::Named),
                        ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => {
                            (&s.local, Kind::Default)
                        }
                        ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => {
                            (&s.local, Kind::Namespace)
                        }
                    };
                    Spec {
                        local: local.name.as_str().to_owned(),
                        span: range(s.span()),
                        kind,
                    }
                })
                .collect();
            if !specs.is_empty() {
                decls.push(Decl {
                    stmt: range(d.span),
                    specs,
                });
            }
        }
        let jsdoc = if decls.is_empty() {
            Vec::new()
        } else {
            program
                .comments
                .iter()
                .filter_map(|c| {
                    let r = range(c.span);
                    let text = src.get(r.clone())?;
                    (text.starts_with("/**") && !text.starts_with("/**/"))
                        .then(|| (r, type_words(text)))
                })
                .collect()
        };
        let always_module = path.ends_with(".mjs") || path.ends_with(".mts");
        let module_statements = program
            .body
            .iter()
            .filter(|s| s.is_module_declaration())
            .count();
        let module_by_imports =
            !always_module && !decls.is_empty() && module_statements == decls.len();
        Imports {
            decls,
            module_by_imports,
            jsdoc,
        }
    }

    /// The edits that remove every import name only the code `edits` deletes or replaces
    /// named, and those names; nothing when there is none, or when an edit of the fix
    /// already touches the declaration. `whole` is the range to delete for a whole statement.
    pub fn removals(
        &self,
        src: &str,
        refs: &References,
        edits: &[Edit],
        whole: &dyn Fn(Range<usize>) -> Range<usize>,
    ) -> Removal {
        let unused = self.left_unused(refs, edits);
        let mut out = Removal::default();
        // The declarations this fix deletes whole (the last may become `export {};`).
        let mut whole_decls = Vec::new();
        for (d, decl) in self.decls.iter().enumerate() {
            let removed: Vec<usize> = unused
                .iter()
                .filter(|(ud, _)| *ud == d)
                .map(|(_, s)| *s)
                .collect();
            if removed.is_empty() || edits.iter().any(|e| overlaps(&decl.stmt, e)) {
                continue;
            }
            let Some(mut decl_edits) = decl.removal(src, &removed, whole) else {
                continue;
            };
            if decl_edits
                .iter()
                .any(|n| edits.iter().any(|e| overlaps(&(n.start..n.end), e)))
            {
                continue;
            }
            if removed.len() == decl.specs.len() {
                whole_decls.push((d, out.edits.len()));
            }
            out.names
                .extend(removed.iter().map(|&s| decl.specs[s].local.clone()));
            out.edits.append(&mut decl_edits);
        }
        if self.module_by_imports && !whole_decls.is_empty() {
            if whole_decls.len() == self.decls.len()
                && let Some(&(d, e)) = whole_decls.last()
            {
                let stmt = &self.decls[d].stmt;
                out.edits[e] = Edit::new(stmt.start, stmt.end, "export {};");
            }
            let first = &self.decls[0].stmt;
            out.claims.push(Claim {
                start: first.start,
                end: first.end,
                exclusive: true,
            });
        }
        out
    }

    /// Claims on each import name that no fix leaves unused alone but several together do
    /// (see the module documentation): the fix applied last in a round (the one whose first
    /// edit comes last) claims it exclusively, the others share their claims.
    pub fn claim_shared(&self, refs: &References, fixes: &mut [OccurrenceFix]) {
        if self.decls.is_empty() || fixes.len() < 2 {
            return;
        }
        let all: Vec<Edit> = fixes.iter().flat_map(|f| f.fix.edits.clone()).collect();
        for (d, s) in self.left_unused(refs, &all) {
            let spec = &self.decls[d].specs[s];
            let uses = refs.of_name(&spec.local);
            let covers = |edits: &[Edit]| {
                uses.iter()
                    .any(|u| edits.iter().any(|e| e.start <= u.start && u.end <= e.end))
            };
            let members: Vec<usize> = (0..fixes.len())
                .filter(|&i| covers(&fixes[i].fix.edits))
                .collect();
            // One fix, or copies of one fix (a whole block each member deletes): it removes the
            // name itself.
            if members
                .iter()
                .all(|&i| fixes[i].fix.edits == fixes[members[0]].fix.edits)
            {
                continue;
            }
            let first_edit = |i: usize| fixes[i].fix.edits.iter().map(|e| e.start).min();
            let Some(closer) = members.iter().copied().max_by_key(|&i| first_edit(i)) else {
                continue;
            };
            let closing = fixes[closer].fix.edits.clone();
            for &i in &members {
                let exclusive = fixes[i].fix.edits == closing;
                fixes[i].fix.claims.push(Claim {
                    start: spec.span.start,
                    end: spec.span.end,
                    exclusive,
                });
            }
        }
    }

    /// The import names that something named and that, once `edits` are applied, nothing
    /// names any more.
    fn left_unused(&self, refs: &References, edits: &[Edit]) -> Vec<Unused> {
        let gone = |r: &Range<usize>| {
            edits
                .iter()
                .any(|e| e.start < e.end && e.start <= r.start && r.end <= e.end)
        };
        let mut out = Vec::new();
        for (d, decl) in self.decls.iter().enumerate() {
            for (s, spec) in decl.specs.iter().enumerate() {
                let name = spec.local.as_str();
                let uses = refs.of_name(name);
                let unused = !uses.is_empty()
                    && uses.iter().all(gone)
                    && !edits.iter().any(|e| names_word(&e.replacement, name))
                    && !self
                        .jsdoc
                        .iter()
                        .any(|(r, words)| !gone(r) && words.iter().any(|w| w == name));
                if unused {
                    out.push((d, s));
                }
            }
        }
        out
    }
}

impl Decl {
    /// The edits that remove the specifiers `removed` (indices, ascending) from this
    /// declaration: the whole statement when it is all of them, else each run of them with one
    /// separator. `None` when the text between them is not the plain shape expected.
    fn removal(
        &self,
        src: &str,
        removed: &[usize],
        whole: &dyn Fn(Range<usize>) -> Range<usize>,
    ) -> Option<Vec<Edit>> {
        if removed.len() == self.specs.len() {
            let r = whole(self.stmt.clone());
            return Some(vec![Edit::new(r.start, r.end, "")]);
        }
        let is_removed = |i: usize| removed.contains(&i);
        let mut edits = Vec::new();
        let named: Vec<usize> = (0..self.specs.len())
            .filter(|&i| self.specs[i].kind == Kind::Named)
            .collect();
        // `D, ` before a namespace or a named group that stays.
        if let Some(first) = self.specs.first()
            && first.kind == Kind::Default
            && is_removed(0)
        {
            let next = skip_separators(src, first.span.end);
            if !src[next..].starts_with(['{', '*']) {
                return None;
            }
            edits.push(Edit::new(first.span.start, next, ""));
        }
        for (i, spec) in self.specs.iter().enumerate() {
            // `, * as ns` after a default import that stays.
            if spec.kind == Kind::Namespace && is_removed(i) {
                let default = self.specs.first().filter(|d| d.kind == Kind::Default)?;
                edits.push(Edit::new(default.span.end, spec.span.end, ""));
            }
        }
        let kept: Vec<usize> = named.iter().copied().filter(|&i| !is_removed(i)).collect();
        if kept.is_empty() && !named.is_empty() {
            // The whole group after a default import that stays: `, { a, b }`.
            let default = self.specs.first().filter(|d| d.kind == Kind::Default)?;
            let last = &self.specs[*named.last()?];
            let close = skip_separators(src, last.span.end);
            if !src[close..].starts_with('}') {
                return None;
            }
            edits.push(Edit::new(default.span.end, close + 1, ""));
        } else {
            // Each run of removed names: up to the next name that stays, or, at the end of
            // the group, from the name before it (which stays).
            let mut k = 0;
            while k < named.len() {
                if !is_removed(named[k]) {
                    k += 1;
                    continue;
                }
                let run_start = k;
                while k < named.len() && is_removed(named[k]) {
                    k += 1;
                }
                let first = &self.specs[named[run_start]];
                let last = &self.specs[named[k - 1]];
                if let Some(&next) = named.get(k) {
                    edits.push(Edit::new(first.span.start, self.specs[next].span.start, ""));
                } else {
                    let before = &self.specs[named[run_start.checked_sub(1)?]];
                    edits.push(Edit::new(before.span.end, last.span.end, ""));
                }
            }
        }
        edits.sort_by_key(|e| (e.start, e.end));
        Some(edits)
    }
}

/// Whether an edit deletes or replaces any byte of `r` (or inserts inside it).
fn overlaps(r: &Range<usize>, e: &Edit) -> bool {
    e.start < r.end && r.start < e.end || (e.start == e.end && r.start < e.start && e.start < r.end)
}

/// `at` moved past whitespace and commas.
fn skip_separators(src: &str, at: usize) -> usize {
    let rest = &src[at..];
    at + rest.len()
        - rest
            .trim_start_matches(|c: char| c.is_whitespace() || c == ',')
            .len()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Whether `text` holds `name` as a whole word (an over-approximation of "names it": a word in
/// a string keeps an import, which is only ever safe).
fn names_word(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

/// The words inside the `{…}` of a JSDoc comment: the names its type expressions and
/// `{@link …}` tags refer to.
fn type_words(comment: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut word = String::new();
    for c in comment.chars() {
        if depth > 0 && is_word_char(c) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::apply::apply;
    use crate::model::{Applicability, Fix};
    use oxc_allocator::Allocator;
    use oxc_parser::Parser;
    use oxc_span::SourceType;

    /// The text after removing the specifiers named `names` from the first import of `src`.
    fn remove(src: &str, names: &[&str]) -> Option<String> {
        let arena = Allocator::default();
        let program = Parser::new(&arena, src, SourceType::ts()).parse().program;
        let imports = Imports::of(&program, src, "t.ts");
        let decl = &imports.decls[0];
        let removed: Vec<usize> = (0..decl.specs.len())
            .filter(|&i| names.contains(&decl.specs[i].local.as_str()))
            .collect();
        let edits = decl.removal(src, &removed, &|r| r)?;
        let fix = Fix::new(Applicability::MachineApplicable, "", edits);
        Some(apply(src, &[&fix]).text)
    }

    #[test]
    fn each_shape_of_import_loses_only_the_named_specifiers() {
        let cases: &[(&str, &[&str], &str)] = &[
            (
                "import { A, B, C } from 'x';",
                &["A"],
                "import { B, C } from 'x';",
            ),
            (
                "import { A, B, C } from 'x';",
                &["B"],
                "import { A, C } from 'x';",
            ),
            (
                "import { A, B, C } from 'x';",
                &["C"],
                "import { A, B } from 'x';",
            ),
            (
                "import { A, B, C } from 'x';",
                &["A", "C"],
                "import { B } from 'x';",
            ),
            (
                "import { A, B, C } from 'x';",
                &["A", "B"],
                "import { C } from 'x';",
            ),
            ("import { A, B, C } from 'x';", &["A", "B", "C"], ""),
            (
                "import { A, type B } from 'x';",
                &["B"],
                "import { A } from 'x';",
            ),
            (
                "import { A as Z, B } from 'x';",
                &["Z"],
                "import { B } from 'x';",
            ),
            (
                "import D, { A } from 'x';",
                &["D"],
                "import { A } from 'x';",
            ),
            (
                "import D, { A, B } from 'x';",
                &["A", "B"],
                "import D from 'x';",
            ),
            ("import D, * as ns from 'x';", &["ns"], "import D from 'x';"),
            (
                "import D, * as ns from 'x';",
                &["D"],
                "import * as ns from 'x';",
            ),
            ("import * as ns from 'x';", &["ns"], ""),
            (
                "import {\n  A,\n  B,\n  C,\n} from 'x';",
                &["C"],
                "import {\n  A,\n  B,\n} from 'x';",
            ),
            (
                "import {\n  A,\n  B,\n  C,\n} from 'x';",
                &["A"],
                "import {\n  B,\n  C,\n} from 'x';",
            ),
        ];
        for (src, names, want) in cases {
            assert_eq!(
                remove(src, names).as_deref(),
                Some(*want),
                "{src} - {names:?}"
            );
        }
    }

    /// Two fixes that remove complementary parts of one declaration (each alone leaves the
    /// other's names) never apply together: together they would leave an empty or broken
    /// import. Every split of a few shapes between two fixes.
    #[test]
    fn complementary_removals_from_one_declaration_overlap() {
        for src in [
            "import { A, B } from 'x';",
            "import { A, B, C } from 'x';",
            "import { A, B, C, D } from 'x';",
            "import D, { A } from 'x';",
            "import D, { A, B } from 'x';",
            "import D, * as A from 'x';",
        ] {
            let arena = Allocator::default();
            let program = Parser::new(&arena, src, SourceType::ts()).parse().program;
            let imports = Imports::of(&program, src, "t.ts");
            let decl = &imports.decls[0];
            let n = decl.specs.len();
            for mask in 1..(1u32 << n) - 1 {
                let first: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
                let second: Vec<usize> = (0..n).filter(|i| mask & (1 << i) == 0).collect();
                let a = decl.removal(src, &first, &|r| r).unwrap();
                let b = decl.removal(src, &second, &|r| r).unwrap();
                let a = Fix::new(Applicability::MachineApplicable, "", a);
                let b = Fix::new(Applicability::MachineApplicable, "", b);
                let r = apply(src, &[&a, &b]);
                assert_eq!(
                    r.applied.len(),
                    1,
                    "{src} split {first:?}/{second:?}: {r:?}"
                );
            }
        }
    }

    #[test]
    fn words_of_jsdoc_types_and_whole_word_matches() {
        assert_eq!(
            type_words("/** @param {Agent} a see {@link Host.Loop} and Other */"),
            vec!["Agent", "link", "Host", "Loop"]
        );
        assert!(names_word("(session: Agent['session'])", "Agent"));
        assert!(!names_word("AgentLike | Agents", "Agent"));
    }
}
