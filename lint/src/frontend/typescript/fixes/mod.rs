//! Fixes for TypeScript/JavaScript: rewrites that migrate a use of a removed event, built
//! from the catalogue's [`Migration`] data (durable twin, argument → field), never from code
//! per event.
//!
//! - an emit statement of a removed event: deleted (with a `try` that held only it, or an
//!   `if (flag)` guard); machine-applicable when the durable twin is appended in the same
//!   block and the emit's arguments have no side effects, a suggestion otherwise;
//! - `X.on('<removed>', handler)`: rewritten into `X.on('session/event', (session, event) => …)`
//!   filtering the durable twin, the handler's parameters destructured from `event.data`
//!   (positional handlers are 2026-07 code, one payload-object parameter is 2026-08 code);
//!   machine-applicable when the handler does not use the agent (or only `agent.session`)
//!   and the fields it reads type-check in the new body (cast to the handler's own
//!   annotations, or the file shows its host types `data` by event type: [`typed_data`]),
//!   a suggestion that looks the agent up in a map by session when it does (the file's own,
//!   or one the fix declares, kept by `agent/created`/`agent/disposed` listeners), or whose
//!   fields' types the file does not show;
//! - in a test, a listener whose rewrite is a suggestion and which only collects what the
//!   event carried into an array read after the run: a suggestion to read the durable log
//!   after the run instead, as upstream's own tests do ([`test_logs`]);
//! - everything a fix writes follows the file's semicolon style ([`semicolons`]);
//! - a removed event's entry in an interface or type literal (an event map, a
//!   `declare module … { interface Events { … } }` block): deleted, and the whole block when
//!   every entry in it is a removed event; the types only that entry used are deleted with it;
//! - a `const` holding a removed name and a string enum member spelled with one: deleted when
//!   nothing in the file uses them and they are not exported (a suggestion for a member of an
//!   enum that is used as a whole, `Object.values(Ev)`; no fix while anything else uses them:
//!   those uses carry their own fixes, and the round after them deletes the declaration).
//!
//! Every fix also removes the imports it leaves unused ([`super::imports`]).
//!
//! Each fix is keyed by the byte range of the occurrence it migrates (the name inside the
//! quotes, or the identifier that stands for it).

mod calls;
mod declarations;
mod emits;
mod entries;
mod exprs;
mod focus;
mod handler;
mod merge;
mod semicolons;
mod subscriptions;
mod test_logs;
mod typed_data;
mod uses;
mod walked;

use super::imports::Imports;
use super::listeners::{self, AgentMap, AgentMaps, MergeTarget};
use super::references::References;
use super::syntax::Resolver;
use crate::catalog::{Catalog, Migration};
use crate::frontend::{Context, OccurrenceFix, line_removal};
use crate::hash::{HashMap, HashSet};
use crate::model::Fix;
use calls::LocalCalls;
use entries::sole_interface;
use oxc_ast::ast::*;
use oxc_ast_visit::{Visit, walk};
use oxc_span::{GetSpan, Span};
use std::cell::{OnceCell, RefCell};
use std::ops::Range;
use std::rc::Rc;
use uses::Uses;

pub(super) use focus::Focus;

/// Collects the fixes of one parsed program.
pub(super) struct Fixer<'s, 'c, 'p> {
    src: &'s str,
    /// The program the fixes are for.
    program: &'p Program<'p>,
    /// The uses inside the stretches of each top-level statement that a fix has needed (by
    /// its index; `usize::MAX` for the whole program), collected once ([`Fixer::uses_around`]).
    uses: RefCell<HashMap<usize, Vec<UsesAround>>>,
    cx: Context<'c>,
    resolver: Resolver<'c>,
    /// The file's comments (start, end), sorted: a deleted member takes its JSDoc along.
    comments: Vec<(usize, usize)>,
    /// The line ending new lines use (the file's own).
    newline: &'static str,
    /// Where each name is referenced (a declaration is deleted only when unused).
    refs: References<'p>,
    /// The file's imports (a fix removes those it leaves unused).
    imports: Imports,
    /// The direct calls of each name (a local function's dropped parameter drops their
    /// argument), indexed the first time a fix needs them ([`Fixer::calls`]): most files have
    /// no such fix.
    calls: OnceCell<LocalCalls>,
    /// The statement range of each top-level, unexported `type`/`interface` declaration, by
    /// name (more than one range: merged declarations, never deleted).
    type_decls: HashMap<String, Vec<Range<usize>>>,
    /// The start of each top-level statement of a file whose top level other files can see (a
    /// script without `import`/`export`: its declarations are global), whose declarations are
    /// therefore never deleted as unused.
    global_statements: HashSet<usize>,
    /// For a removed event's `on` statement (by the call's start): the existing
    /// `session/event` listener in the same statement list to merge it into, and the statement.
    merge_for: HashMap<usize, (MergeTarget, Range<usize>)>,
    /// In a test file, the listeners (by the call's start) that only collect into an array read
    /// after the run ([`test_logs`]).
    log_reads: HashMap<usize, test_logs::LogRead>,
    /// The map of agents by session id that `agent/created`/`agent/disposed` listeners keep,
    /// found the first time a fix asks ([`Fixer::agent_map`]): most files have no fix that
    /// needs it.
    agent_map: OnceCell<Option<AgentMap>>,
    /// What ends a statement the fixes write: `;`, or nothing in a file without semicolons
    /// ([`semicolons`]).
    semi: &'static str,
    /// The `const` copies of a session's log ([`typed_data::LogCopies`]), for
    /// [`Fixer::data_typed`].
    log_copies: typed_data::LogCopies,
    /// Whether a listener of the file leaves a parameter unannotated
    /// ([`typed_data::unannotated_listener`]).
    unannotated_listener: bool,
    /// Whether a rewrite destructuring `event.data` without a cast type-checks: JavaScript
    /// (nothing type-checks it), or TypeScript that shows its host types `session/event`'s
    /// `data` by event type ([`typed_data`]). Found the first time a fix asks
    /// ([`Fixer::data_typed`]).
    data_typed: OnceCell<bool>,
    /// Whether the file is TypeScript (else the fixes write no type).
    typescript: bool,
    /// The fixes found so far.
    fixes: Vec<OccurrenceFix>,
    /// The body of every function of the file, in the order the visitor entered them (outer
    /// before inner): what a test is, for the human's part.
    bodies: Vec<Range<usize>>,
    /// The functions the visitor is inside, innermost last.
    scopes: Vec<FnScope>,
    /// The agents a test's stand-in `turn/start` announced with `agent/created` this round, by
    /// the enclosing function's body start and the agent's text (once each).
    announced: HashSet<(usize, String)>,
    /// Where a fix can be: a function holding none of its places is not visited ([`focus`]);
    /// `None` visits every function.
    focus: Option<Focus>,
}

/// The uses inside a stretch of a top-level statement ([`Fixer::uses_around`]).
type UsesAround = (Range<usize>, Rc<Uses>);

/// What the fixer found in a file.
pub(super) struct Found {
    /// The fixes, by occurrence.
    pub(super) fixes: Vec<OccurrenceFix>,
    /// The body of every function, outer before inner.
    pub(super) bodies: Vec<Range<usize>>,
}

/// The innermost of `bodies` (outer before inner) that holds `at`: the test (or helper) a
/// use is part of; the whole file when none does.
pub(super) fn enclosing(bodies: &[Range<usize>], at: &Range<usize>, len: usize) -> Range<usize> {
    bodies
        .iter()
        .rev()
        .find(|b| b.start <= at.start && at.end <= b.end)
        .cloned()
        .unwrap_or(0..len)
}

/// A function the visitor is inside: what deleting a statement of it can leave unused.
struct FnScope {
    /// Each parameter bound to a plain name: the name and its binding's range.
    params: Vec<(String, Range<usize>)>,
    /// For a function declared in this file and not exported: its name and every parameter's
    /// range (a parameter it no longer uses goes, with the argument of each call).
    local: Option<(String, Vec<Range<usize>>)>,
    /// The function's body.
    body: Range<usize>,
}

fn range(span: Span) -> Range<usize> {
    span.start as usize..span.end as usize
}

impl<'s, 'c, 'p> Fixer<'s, 'c, 'p> {
    pub fn new(
        src: &'s str,
        cx: Context<'c>,
        resolver: Resolver<'c>,
        program: &'p Program<'p>,
        focus: Option<Focus>,
    ) -> Self {
        let path = resolver.path;
        let mut comments: Vec<(usize, usize)> = program
            .comments
            .iter()
            .map(|c| (c.span.start as usize, c.span.end as usize))
            .collect();
        comments.sort_unstable();
        // A script's top level is global (TypeScript merges every script's declarations, and
        // classic scripts share one global scope); a module's and a CommonJS file's are not.
        let module = program.source_type.is_commonjs()
            || program.body.iter().any(Statement::is_module_declaration);
        let global_statements: HashSet<usize> = if module {
            HashSet::default()
        } else {
            program
                .body
                .iter()
                .map(|s| s.span().start as usize)
                .collect()
        };
        let mut type_decls: HashMap<String, Vec<Range<usize>>> = HashMap::default();
        for stmt in program.body.iter().filter(|_| module) {
            let name = match stmt {
                Statement::TSTypeAliasDeclaration(t) if !t.declare => t.id.name.as_str(),
                Statement::TSInterfaceDeclaration(i) if !i.declare => i.id.name.as_str(),
                _ => continue,
            };
            type_decls
                .entry(name.to_owned())
                .or_default()
                .push(range(stmt.span()));
        }
        // One walk for what the fixes read of the whole program ([`walked`]).
        let walked = walked::walk(src, program);
        Fixer {
            src,
            program,
            uses: RefCell::new(HashMap::default()),
            cx,
            resolver,
            comments,
            newline: if src.contains("\r\n") { "\r\n" } else { "\n" },
            refs: walked.refs,
            imports: Imports::of(program, src, path),
            calls: OnceCell::new(),
            type_decls,
            global_statements,
            merge_for: HashMap::default(),
            log_reads: HashMap::default(),
            agent_map: OnceCell::new(),
            semi: if walked.semicolons.used() { ";" } else { "" },
            log_copies: walked.log_copies,
            unannotated_listener: walked.unannotated_listener,
            data_typed: OnceCell::new(),
            typescript: program.source_type.is_typescript(),
            fixes: Vec::new(),
            bodies: Vec::new(),
            scopes: Vec::new(),
            announced: HashSet::default(),
            focus,
        }
    }

    /// What ends a statement a fix writes: `;`, or nothing in a file whose statements mostly
    /// do without ([`semicolons::Count::used`]).
    fn semi(&self) -> &'static str {
        self.semi
    }

    /// Whether destructuring `event.data` without a cast type-checks (see the field).
    fn data_typed(&self) -> bool {
        *self.data_typed.get_or_init(|| {
            !self.program.source_type.is_typescript()
                || typed_data::data_typed_by_host(self.program, &self.log_copies)
        })
    }

    /// Whether new unannotated listener parameters type-check under `noImplicitAny`: the file
    /// has a listener of its own whose parameters the receiver types
    /// ([`typed_data::unannotated_listener`], found by the one walk), or it shows how its host
    /// types `data` (JavaScript always does: [`Fixer::data_typed`], a walk of its own, asked
    /// only when the first answer is no).
    fn listeners_typed(&self) -> bool {
        self.unannotated_listener || self.data_typed()
    }

    /// The map of agents the file keeps by session ([`AgentMaps::find`]).
    fn agent_map(&self) -> Option<&AgentMap> {
        self.agent_map
            .get_or_init(|| AgentMaps::find(self.src, self.program))
            .as_ref()
    }

    /// The direct calls of each name in the program ([`LocalCalls`]).
    fn calls(&self) -> &LocalCalls {
        self.calls.get_or_init(|| LocalCalls::of(self.program))
    }

    /// The identifier uses of the top-level statement that holds `body` (of the whole
    /// program when none does), inside `body`: read through [`Uses::view`] of `body`. Each
    /// collection walks only the stretch first asked for and answers every later question
    /// about a stretch inside it: the fixer asks about a function before the functions
    /// nested in it, so a nested function is not walked again for each function around it
    /// (issue 32 item 1; 6,000 nested arrows took seconds).
    fn uses_around(&self, body: &Range<usize>) -> Rc<Uses> {
        let stmts = &self.program.body;
        let i = stmts.partition_point(|s| (s.span().end as usize) <= body.start);
        let key = match stmts.get(i) {
            Some(s) if range(s.span()).start <= body.start && body.end <= range(s.span()).end => i,
            _ => usize::MAX,
        };
        if let Some(u) = self.uses.borrow().get(&key).and_then(|found| {
            found
                .iter()
                .find(|(r, _)| r.start <= body.start && body.end <= r.end)
        }) {
            return Rc::clone(&u.1);
        }
        // Once the stretches walked would add up to more than the statement, the statement
        // is walked whole: nothing is walked more than twice, whatever order the questions
        // come in (a function asked about after the functions nested in it).
        let whole = stmts
            .get(key)
            .map_or(0..self.src.len(), |s| range(s.span()));
        let walked: usize = (self.uses.borrow().get(&key))
            .map_or(0, |found| found.iter().map(|(r, _)| r.len()).sum());
        let stretch = if walked + body.len() > whole.len() {
            whole
        } else {
            body.clone()
        };
        let u = Rc::new(match stmts.get(key) {
            Some(s) => Uses::of_statement_around(s, stretch.clone()),
            None => Uses::of_program_around(self.program, stretch.clone()),
        });
        (self.uses.borrow_mut().entry(key).or_default()).push((stretch, Rc::clone(&u)));
        u
    }

    /// Whether a function at `span` can hold a fix (see [`focus`]).
    fn in_focus(&self, span: Span) -> bool {
        self.focus.as_ref().is_none_or(|f| f.holds(span))
    }

    /// The fixes of the program, once visited: with claims on the imports that only several
    /// of them together leave unused.
    pub fn finish(mut self) -> Found {
        self.imports.claim_shared(&self.refs, &mut self.fixes);
        Found {
            fixes: self.fixes,
            bodies: self.bodies,
        }
    }

    fn catalog(&self) -> &'c Catalog {
        self.cx.catalog
    }

    /// The removed event an argument names, its migration, and the occurrence range the
    /// linter reports for it.
    fn event_arg(&self, e: &Expression<'_>) -> Option<(String, &'c Migration, Range<usize>)> {
        let inner = e.get_inner_expression();
        let (event, _) = self.resolver.eval(inner, self.cx)?;
        let migration = self.catalog().lookup(&event)?.migration.as_ref()?;
        let r = match inner {
            Expression::StringLiteral(s) => s.span.start as usize + 1..s.span.end as usize - 1,
            Expression::TemplateLiteral(t) => range(t.quasis.first()?.span),
            other => range(other.span()),
        };
        // A literal spelled with escapes is not where the name match is: no fix.
        let literal = matches!(inner, Expression::StringLiteral(_));
        (!literal || self.src.get(r.clone()) == Some(event.as_str()))
            .then_some((event, migration, r))
    }

    /// Keeps `fix` for `occurrence`, with the removal of the imports it leaves unused.
    fn push(&mut self, occurrence: Range<usize>, mut fix: Fix) {
        let removal = self
            .imports
            .removals(self.src, &self.refs, &fix.edits, &|r| self.removal(r));
        fix.claims.extend(removal.claims);
        if !removal.names.is_empty() {
            let names: Vec<String> = removal.names.iter().map(|n| format!("`{n}`")).collect();
            let what = if names.len() == 1 {
                "import"
            } else {
                "imports"
            };
            fix.message = format!(
                "{}, and the {what} {} it leaves unused",
                fix.message,
                names.join(", ")
            );
            fix.edits.extend(removal.edits);
            fix.edits.sort_by_key(|e| (e.start, e.end));
        }
        self.fixes.push(OccurrenceFix {
            start: occurrence.start,
            end: occurrence.end,
            fix,
        });
    }

    /// The range to delete for a node at `r` (see [`line_removal`]).
    fn removal(&self, r: Range<usize>) -> Range<usize> {
        let mut r = line_removal(self.src, r);
        // The file's first lines deleted: the blank line after them goes too (a file does not
        // start with one).
        if r.start == 0 {
            let rest = &self.src[r.end..];
            let blank = rest.trim_start_matches([' ', '\t']);
            if let Some(after) = blank
                .strip_prefix("\r\n")
                .or_else(|| blank.strip_prefix('\n'))
            {
                r.end += rest.len() - after.len();
            }
        }
        r
    }

    /// `r` extended back over the comments directly above it (its JSDoc), up to a blank line
    /// (a comment above one is about more than this node).
    fn with_leading_comments(&self, r: Range<usize>) -> Range<usize> {
        let mut start = r.start;
        for &(cs, ce) in self.comments.iter().rev() {
            let gap = &self.src[ce.min(start)..start];
            if ce <= start && gap.trim().is_empty() && gap.matches('\n').count() <= 1 {
                start = cs;
            } else if ce <= start {
                break;
            }
        }
        start..r.end
    }

    /// `end` extended over the `;`/`,` separator that follows a member (its span may stop
    /// before it).
    fn past_separator(&self, end: usize) -> usize {
        let rest = &self.src[end..];
        let sep = rest.trim_start_matches([' ', '\t']);
        if sep.starts_with([';', ',']) {
            end + rest.len() - sep.len() + 1
        } else {
            end
        }
    }

    /// The declarations of types that only `deleted` references, so they go with it, and the
    /// types only those reference, and so on: the typed-event declarations of a deleted
    /// event-map entry (`type StreamChunkPayload = …`).
    fn types_only_used_in(&self, deleted: Range<usize>) -> Vec<Range<usize>> {
        let mut gone = vec![deleted];
        let mut found = Vec::new();
        loop {
            let inside =
                |r: &Range<usize>| gone.iter().any(|g| g.start <= r.start && r.end <= g.end);
            let next = self.type_decls.iter().find_map(|(name, decls)| {
                let [decl] = decls.as_slice() else {
                    return None;
                };
                let uses = self.refs.of_name(name);
                // Not already going, used, and used nowhere else.
                (!inside(decl) && !uses.is_empty() && uses.iter().all(inside)).then(|| decl.clone())
            });
            match next {
                Some(decl) => {
                    gone.push(decl.clone());
                    found.push(self.removal(self.with_leading_comments(decl)));
                }
                None => break,
            }
        }
        found.sort_by_key(|r| r.start);
        found
    }

    fn indent_at(&self, offset: usize) -> &'s str {
        let line_start = self.src[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.src[line_start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }

    fn quote_at(&self, r: &Range<usize>) -> char {
        match r
            .start
            .checked_sub(1)
            .and_then(|p| self.src.as_bytes().get(p))
        {
            Some(b'"') => '"',
            Some(b'`') => '`',
            _ => '\'',
        }
    }
}

impl Fixer<'_, '_, '_> {
    /// Enters a function: its plain parameters and its body.
    fn enter_function(
        &mut self,
        params: &FormalParameters<'_>,
        body_span: Span,
        local: Option<String>,
    ) {
        let plain = params.rest.is_none()
            && params
                .items
                .iter()
                .all(|p| matches!(p.pattern, BindingPattern::BindingIdentifier(_)));
        let local = local
            .filter(|_| plain)
            .map(|name| (name, params.items.iter().map(|p| range(p.span)).collect()));
        let params = params
            .items
            .iter()
            .filter_map(|p| match &p.pattern {
                BindingPattern::BindingIdentifier(id) => {
                    Some((id.name.as_str().to_owned(), range(id.span)))
                }
                _ => None,
            })
            .collect();
        self.bodies.push(range(body_span));
        self.scopes.push(FnScope {
            params,
            local,
            body: range(body_span),
        });
    }
}

impl<'a> Visit<'a> for Fixer<'_, '_, '_> {
    fn visit_function(&mut self, it: &Function<'a>, flags: oxc_syntax::scope::ScopeFlags) {
        if !self.in_focus(it.span) {
            return;
        }
        let Some(body) = &it.body else {
            return walk::walk_function(self, it, flags);
        };
        // A function declaration of this file that nothing outside it can call.
        let start = it.span.start as usize;
        let exported = self.src[..start].trim_end().ends_with("export")
            || self.src[..start].trim_end().ends_with("default");
        let local = (it.is_declaration() && !it.declare && !exported && it.this_param.is_none())
            .then(|| it.id.as_ref().map(|id| id.name.as_str().to_owned()))
            .flatten()
            .filter(|_| !self.global_statements.contains(&start));
        self.enter_function(&it.params, body.span, local);
        walk::walk_function(self, it, flags);
        self.scopes.pop();
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        if !self.in_focus(it.span) {
            return;
        }
        self.enter_function(&it.params, it.body.span(), None);
        walk::walk_arrow_function_expression(self, it);
        self.scopes.pop();
    }

    fn visit_statements(&mut self, it: &oxc_allocator::Vec<'a, Statement<'a>>) {
        // A fix of this list's statements is keyed by an occurrence inside one of them: a
        // statement touching no marked stretch has none ([`focus`]), and its emit, `const`,
        // enum or subscription is not looked at (issue 32 item 1; `focus::tests` compares
        // with a visit of everything).
        let subscriptions: Vec<(usize, &CallExpression<'a>)> = it
            .iter()
            .enumerate()
            .filter(|(_, s)| self.in_focus(s.span()))
            .filter_map(|(i, s)| listeners::on_call(s).map(|c| (i, c)))
            .collect();
        // Subscriptions to removed events beside an existing `session/event` listener on the
        // same receiver: merging into it is the suggestion.
        let targets: Vec<MergeTarget> = if subscriptions.is_empty() {
            Vec::new()
        } else {
            it.iter()
                .filter_map(|s| listeners::merge_target(self.src, s))
                .collect()
        };
        if !targets.is_empty() {
            for &(i, call) in &subscriptions {
                let Some(recv) = listeners::receiver(self.src, call) else {
                    continue;
                };
                if let Some(t) = targets.iter().find(|t| t.receiver == recv) {
                    self.merge_for
                        .insert(call.span.start as usize, (t.clone(), range(it[i].span())));
                }
            }
        }
        if !subscriptions.is_empty() && crate::frontend::is_test(self.resolver.path) {
            for &(i, call) in &subscriptions {
                if let Some(read) = test_logs::candidate(self.src, &self.refs, it, i) {
                    self.log_reads.insert(call.span.start as usize, read);
                }
            }
        }
        for i in 0..it.len() {
            if !self.in_focus(it[i].span()) {
                continue;
            }
            self.emit_statement(it, i);
            if self
                .global_statements
                .contains(&(it[i].span().start as usize))
            {
                continue;
            }
            match &it[i] {
                Statement::VariableDeclaration(v) => self.unused_const(v, range(it[i].span())),
                Statement::TSEnumDeclaration(e) => self.unused_enum_members(e, range(it[i].span())),
                _ => {}
            }
        }
        walk::walk_statements(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.subscription(it);
        walk::walk_call_expression(self, it);
    }

    fn visit_ts_external_module_declaration(&mut self, it: &TSExternalModuleDeclaration<'a>) {
        if let Some(body) = &it.body
            && let Some(iface) = sole_interface(body)
        {
            self.members(&iface.body.body, Some(range(it.span)));
            return;
        }
        walk::walk_ts_external_module_declaration(self, it);
    }

    fn visit_ts_interface_body(&mut self, it: &TSInterfaceBody<'a>) {
        self.members(&it.body, None);
        walk::walk_ts_interface_body(self, it);
    }

    fn visit_ts_type_literal(&mut self, it: &TSTypeLiteral<'a>) {
        self.members(&it.members, None);
        walk::walk_ts_type_literal(self, it);
    }
}
