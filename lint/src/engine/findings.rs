//! One analysed file's findings: each occurrence worded and given its rule, severity and fix,
//! the file's parse error, its suppressions applied (and the unused or malformed ones
//! reported), and the fingerprints that baselines match.

use crate::baseline;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::frontend::{FileAnalysis, HumanPart, OccurrenceFix};
use crate::hash::{HashMap, HashSet};
use crate::model::{Finding, Occurrence, Role, Severity};
use crate::rules::{self, Rule};
use crate::source::{LineIndex, Source, text_range};
use crate::suppress::{self, Suppression};

/// The findings of one analysed file, and how many of them its suppressions removed.
pub(super) fn file_findings(
    s: &Source,
    analysis: FileAnalysis,
    catalog: &Catalog,
    config: &Config,
) -> (Vec<Finding>, usize) {
    let index = LineIndex::new(&s.text);
    let unparsed = analysis.parse_error.is_some();
    let occurrences = distinct_occurrences(analysis.occurrences, &index);
    let mut findings = occurrence_findings(
        s,
        &index,
        occurrences,
        &analysis.fixes,
        &analysis.human,
        unparsed,
        catalog,
        config,
    );
    findings.extend(unparsed_finding(
        s,
        &index,
        analysis.parse_error.as_ref(),
        config,
    ));
    let suppressed = apply_suppressions(
        s,
        &index,
        &analysis.suppression_comments,
        config,
        &mut findings,
    );
    assign_fingerprints(&mut findings);
    (findings, suppressed)
}

/// One occurrence per rule and place: the same name at the same place found twice is one
/// finding (the most specific role), but every other occurrence is kept, however many share a
/// line (`bus.on("x", a); bus.emit("x", b)` is a subscription and an emit). A declaration is
/// one place however it is spelled: `event!(TurnStart, "agent/x")` declares once, not once for
/// the name and once for the string.
fn distinct_occurrences(occurrences: Vec<Occurrence>, index: &LineIndex<'_>) -> Vec<Occurrence> {
    let mut declared = HashSet::default();
    crate::frontend::in_source_order(occurrences)
        .into_iter()
        .filter(|o| {
            o.role != Role::Declare || declared.insert((index.position(o.start).0, o.event.clone()))
        })
        .collect()
}

/// The finding of each occurrence whose rule is enabled, with the front end's fix (or the
/// prose suggestion) attached, or none for the human's part.
#[allow(clippy::too_many_arguments)]
fn occurrence_findings(
    s: &Source,
    index: &LineIndex<'_>,
    occurrences: Vec<Occurrence>,
    fixes: &[OccurrenceFix],
    human: &[HumanPart],
    unparsed: bool,
    catalog: &Catalog,
    config: &Config,
) -> Vec<Finding> {
    let parse_note = unparsed.then(|| {
        "found by the lexical scan: the file does not parse, so the use could not be classified"
            .to_owned()
    });
    // The front end's fix of each occurrence, by its range (the first one given wins).
    let mut fix_at: HashMap<(usize, usize), &crate::model::Fix> = HashMap::default();
    for f in fixes {
        fix_at.entry((f.start, f.end)).or_insert(&f.fix);
    }
    let mut findings = Vec::new();
    let mut passages = Passages::default();
    for o in occurrences {
        let rule = rules::for_role(o.role);
        let Some(severity) = config.severity(rule) else {
            continue;
        };
        let event = catalog.lookup(&o.event);
        let (message, help) = wording(o.role, &o.event, event);
        let note = o.via.clone().or_else(|| parse_note.clone());
        // A rewording that would make the sentence name the durable twin twice (it contrasts
        // the mirror with its twin: "`step/start` is appended before `agent/step-start` is
        // emitted") turns it into a falsehood: no fix, a human rewords it.
        let contrast = (matches!(o.role, Role::Mention | Role::Comment)
            && !fix_at.contains_key(&(o.start, o.end)))
        .then(|| {
            let scope = if is_markdown(&s.display) {
                Scope::Paragraph
            } else if o.role == Role::Comment {
                Scope::CommentBlock
            } else {
                Scope::Sentence
            };
            prose_contrast(index.text(), o.start, o.end, scope, event?, &mut passages)
        })
        .flatten();
        let reworded_by_hand = contrast.is_some();
        let note = match contrast {
            Some(why) => Some(match note {
                Some(n) => format!("{n}; {why}"),
                None => why,
            }),
            None => note,
        };
        let fix = if reworded_by_hand {
            None
        } else {
            fix_for(&o, &fix_at, event, index)
        };
        let mut finding = make_finding(
            s,
            index,
            rule,
            severity,
            Some(o.event.clone()),
            o.start,
            o.end,
            message,
            help,
            note,
        );
        // The human's part: no source edit, whatever the front end offered, in the whole test
        // (a half-rewritten test pins nothing); the note says what upstream did with its like.
        let own = human.iter().find(|h| h.start == o.start && h.end == o.end);
        let within = || {
            human
                .iter()
                .find(|h| h.scope.start <= o.start && o.end <= h.scope.end)
        };
        match own
            .map(|h| (h, true))
            .or_else(|| within().map(|h| (h, false)))
        {
            Some((h, own)) => {
                finding.human = true;
                let reason = if own {
                    h.reason.clone()
                } else {
                    let line = index.position(h.start).0;
                    format!(
                        "the human's part: part of a test that is (see its finding at line {line}), left as it is"
                    )
                };
                finding.note = Some(match finding.note.take() {
                    Some(n) if !n.starts_with("no fix:") => format!("{n}; {reason}"),
                    _ => reason,
                });
            }
            None => finding.fix = fix,
        }
        findings.push(finding);
    }
    findings
}

/// What a finding of `role` on the removed event `ev` says: its message and its help. Built
/// by concatenation, not `format!`: two strings for every finding.
fn wording(role: Role, ev: &str, event: Option<&crate::catalog::Event>) -> (String, String) {
    let replacement = event.map_or("", |e| e.replacement.as_str());
    let requirement = event.and_then(|e| e.requirement.as_deref());
    // ` (see `mirrorless explain R`)` after the help, when the event names its requirement.
    let help = |before: &str| match requirement {
        Some(r) => [before, replacement, " (see `mirrorless explain ", r, "`)"].concat(),
        None => [before, replacement].concat(),
    };
    let message = |what: &str| [what, " removed event `", ev, "`"].concat();
    match role {
        Role::Subscribe => (message("subscribes to"), help("")),
        Role::Emit => (
            message("emits"),
            help("delete the emit: the durable event is already in the session log; consumers "),
        ),
        Role::Declare => (
            message("declares"),
            help("delete the declaration and migrate its users: "),
        ),
        Role::Reference => (message("uses"), help("")),
        Role::Embedded => (
            message("embedded code names"),
            help("migrate the embedded code: "),
        ),
        Role::Mention => (
            message("string mentions"),
            ["reword it in terms of the durable event: ", replacement].concat(),
        ),
        Role::Comment => (
            message("comment mentions"),
            [
                "update the comment if it describes current behaviour: ",
                replacement,
            ]
            .concat(),
        ),
    }
}

/// The ML009 finding of a file that does not parse, when the rule is enabled.
fn unparsed_finding(
    s: &Source,
    index: &LineIndex<'_>,
    parse_error: Option<&(usize, String)>,
    config: &Config,
) -> Option<Finding> {
    let (offset, msg) = parse_error?;
    let severity = config.severity(&rules::unparsed::RULE)?;
    let end = s.text[*offset..]
        .chars()
        .next()
        .map_or(*offset, |c| offset + c.len_utf8());
    Some(make_finding(
        s,
        index,
        &rules::unparsed::RULE,
        severity,
        None,
        *offset,
        end,
        format!("file does not parse: {msg}"),
        "fix the syntax error, or exclude the file; its strings and comments were scanned lexically".to_owned(),
        None,
    ))
}

/// Removes the findings the file's suppression comments allow and reports the malformed and
/// unused comments (when that rule is enabled). Returns how many findings were removed.
fn apply_suppressions(
    s: &Source,
    index: &LineIndex<'_>,
    comments: &[crate::frontend::CommentText],
    config: &Config,
    findings: &mut Vec<Finding>,
) -> usize {
    let mut sups: Vec<Suppression> = comments
        .iter()
        .filter_map(|c| {
            let (line, _) = index.position(c.start);
            suppress::parse(
                &c.text,
                c.start,
                line,
                index.starts_line(c.start),
                index.next_nonblank(line),
            )
        })
        .collect();
    let before = findings.len();
    findings.retain(|f| {
        for sp in sups.iter_mut() {
            if sp.problem.is_none()
                && sp.target_line == f.line
                && sp.rules.iter().any(|(r, ev)| {
                    r.id == f.rule && ev.as_ref().is_none_or(|e| f.event.as_ref() == Some(e))
                })
            {
                sp.used = true;
                return false;
            }
        }
        true
    });
    let suppressed = before - findings.len();
    if let Some(severity) = config.severity(&rules::suppression::RULE) {
        for sp in &sups {
            let message = match (&sp.problem, sp.used) {
                (Some(p), _) => format!("malformed suppression: {p}"),
                (None, false) => format!(
                    "unused suppression: no {} finding on line {}",
                    sp.rules
                        .iter()
                        .map(|(r, ev)| match ev {
                            Some(e) => format!("{}[{e}]", r.id),
                            None => r.id.to_owned(),
                        })
                        .collect::<Vec<_>>()
                        .join("/"),
                    sp.target_line
                ),
                (None, true) => continue,
            };
            // To the end of the line, but never past a snippet's worth of it: thousands of
            // suppressions on one long line must not each scan the rest of it.
            let limit = crate::source::floor_boundary(&s.text, sp.start + LINE_TEXT_MAX);
            let end = memchr::memchr(b'\n', &s.text.as_bytes()[sp.start..limit])
                .map_or(limit, |e| sp.start + e);
            findings.push(make_finding(
                s,
                index,
                &rules::suppression::RULE,
                severity,
                None,
                sp.start,
                end,
                message,
                "delete the comment, or fix it: `// mirrorless: allow(RULE) reason`".to_owned(),
                None,
            ));
        }
    }
    suppressed
}

/// Fingerprints: stable under line shifts, distinct for repeated identical lines. Sorts the
/// findings by place, the order the count of repeats follows.
fn assign_fingerprints(findings: &mut [Finding]) {
    findings.sort_by_key(|f| (f.line, f.column, f.rule));
    // Each line is stripped of its white space once (the findings on one line, next to each
    // other now, share it), and hashed once per rule and event: the count of repeats keys on
    // the same stripped line.
    let mut stripped: Vec<String> = Vec::new();
    let mut line_of = Vec::with_capacity(findings.len());
    for (i, f) in findings.iter().enumerate() {
        if i == 0 || findings[i - 1].line_text != f.line_text {
            stripped.push(baseline::without_white_space(&f.line_text));
        }
        line_of.push(stripped.len() - 1);
    }
    let mut counts: HashMap<(&str, &str, &str), (usize, baseline::FingerprintPrefix)> =
        HashMap::default();
    let fingerprints: Vec<String> = findings
        .iter()
        .zip(line_of)
        .map(|(f, k)| {
            let ev = f.event.as_deref().unwrap_or_default();
            let line = stripped[k].as_str();
            let (n, prefix) = counts
                .entry((f.rule, ev, line))
                .or_insert_with(|| (0, baseline::FingerprintPrefix::new(f.rule, ev, line)));
            let fingerprint = prefix.with_index(*n);
            *n += 1;
            fingerprint
        })
        .collect();
    for (f, fingerprint) in findings.iter_mut().zip(fingerprints) {
        f.fingerprint = fingerprint;
    }
}

/// The sentence around `start..end`: from the end of the sentence before it (`. `, `! `, `? `,
/// or the start of the line) to the end of its own (or of the line).
fn sentence(text: &str, start: usize, end: usize) -> &str {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    // A sentence ends at `.`, `!` or `?` followed by a space or a tab. Found with memchr, not
    // byte by byte: a table row may hold thousands of mentions and no sentence end at all.
    let bytes = text.as_bytes();
    let blank_after = |i: usize| matches!(bytes.get(i + 1), Some(b' ' | b'\t'));
    let mut from = line_start;
    let mut upto = start.saturating_sub(1).max(line_start);
    while let Some(i) = memchr::memrchr3(b'.', b'!', b'?', &bytes[line_start..upto]) {
        let i = line_start + i;
        if blank_after(i) {
            from = i + 2;
            break;
        }
        upto = i;
    }
    let mut to = line_end;
    let mut at = end;
    while at + 1 < line_end {
        let Some(i) = memchr::memchr3(b'.', b'!', b'?', &bytes[at..line_end - 1]) else {
            break;
        };
        let i = at + i;
        if blank_after(i) {
            to = i + 1;
            break;
        }
        at = i + 1;
    }
    &text[from..to]
}

/// Why renaming the removed name at `start..end` in prose to its durable twin would be false:
/// the sentence already names the twin (it contrasts the two, or would name one event twice).
fn prose_contrast<'c>(
    text: &str,
    start: usize,
    end: usize,
    scope: Scope,
    event: &'c crate::catalog::Event,
    seen: &mut Passages<'c>,
) -> Option<String> {
    let twin = event.migration.as_ref()?.twin.as_str();
    let around = sentence(text, start, end);
    let named = *seen
        .twin_named
        .entry((span_of(text, around), twin))
        .or_insert_with(|| {
            around
                .match_indices(twin)
                .any(|(i, _)| !around[..i].ends_with("agent/"))
        });
    if named {
        return Some(format!(
            "no fix: this sentence also names the durable `{twin}`, so naming it instead of `{}` would name one event twice (a sentence contrasting the removed mirror with its durable twin): reword it by hand",
            &text[start..end]
        ));
    }
    if text[end..].starts_with('(') {
        return Some(format!(
            "no fix: `{}(…)` is the removed mirror's own signature, which the durable `{twin}` does not have: reword it by hand",
            &text[start..end]
        ));
    }
    let passage = match scope {
        Scope::Paragraph => paragraph(text, start, end),
        Scope::CommentBlock => comment_block(text, start, end),
        Scope::Sentence => around,
    };
    let removal = seen
        .removal
        .entry(span_of(text, passage))
        .or_insert_with(|| speaks_of_the_removal(passage).map(str::to_owned))
        .as_deref()?;
    Some(format!(
        "no fix: this passage speaks of the mirror itself (\"{removal}\"), so naming the durable `{twin}` instead of `{}` would make it false (\"Removed: `{twin}`\"): reword it by hand",
        &text[start..end]
    ))
}

/// What [`prose_contrast`] found in a passage, kept for the other mentions in it: a table row
/// or a paragraph may name a removed event thousands of times, and searching the whole
/// passage again for each would cost the square of its length (issue #32 item 5: a 10,000-cell
/// row took 13 s).
#[derive(Default)]
struct Passages<'c> {
    /// Whether a sentence (its byte range) names the durable twin (the key's string).
    twin_named: HashMap<((usize, usize), &'c str), bool>,
    /// The words that speak of the removal in a passage (its byte range), if any.
    removal: HashMap<(usize, usize), Option<String>>,
}

/// The byte range of `part`, a slice of `text`, in `text`.
fn span_of(text: &str, part: &str) -> (usize, usize) {
    let start = part.as_ptr() as usize - text.as_ptr() as usize;
    (start, start + part.len())
}

/// How far a rewording looks for words that speak of the removal: a prose paragraph, a block
/// of comment lines, or (a string in code) the sentence alone, since the next line of code is
/// about something else.
#[derive(Clone, Copy)]
enum Scope {
    Paragraph,
    CommentBlock,
    Sentence,
}

fn is_markdown(display: &str) -> bool {
    let ext = display
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    matches!(ext.as_deref(), Some("md" | "markdown" | "mdx"))
}

/// The comment lines around `start..end`: the adjacent lines that are comments too, up to a
/// line that is only a comment marker (a comment's blank line) or is code.
fn comment_block(text: &str, start: usize, end: usize) -> &str {
    const MARKERS: &[&str] = &["///", "//!", "//", "/*", "*"];
    let prose = |line: &str| {
        let t = line.trim_start();
        MARKERS
            .iter()
            .find_map(|m| t.strip_prefix(m))
            .is_some_and(|rest| {
                !rest
                    .trim_matches(|c: char| c.is_whitespace() || c == '/' || c == '*')
                    .is_empty()
            })
    };
    let mut from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let mut to = text[end..].find('\n').map_or(text.len(), |i| end + i);
    while from > 0 {
        let prev_start = text[..from - 1].rfind('\n').map_or(0, |i| i + 1);
        if !prose(&text[prev_start..from - 1]) {
            break;
        }
        from = prev_start;
    }
    while to < text.len() {
        let next_end = text[to + 1..].find('\n').map_or(text.len(), |i| to + 1 + i);
        if !prose(&text[to + 1..next_end]) {
            break;
        }
        to = next_end;
    }
    &text[from..to]
}

/// The Markdown paragraph around `start..end`: its lines up to a blank line, a heading or the
/// start of another list item (a list item or a note's paragraph speaks of one thing, even
/// across sentences); a table row is its own passage. At most a few lines either way.
fn paragraph(text: &str, start: usize, end: usize) -> &str {
    const REACH: usize = 2_000;
    let line_at = |at: usize| {
        let from = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let to = text[at..].find('\n').map_or(text.len(), |i| at + i);
        (from, to)
    };
    let kind = |line: &str| {
        let t = line.trim_start();
        // Digits and `. ` at the start: no `. ` can come before them, so this is what the
        // first `. ` of the line tells, without reading the rest of a long line.
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let numbered = digits > 0 && t[digits..].starts_with(". ");
        if t.is_empty() {
            Line::Blank
        } else if t.starts_with('|') {
            Line::Row
        } else if t.starts_with('#') {
            Line::Heading
        } else if numbered || ["- ", "* ", "+ "].iter().any(|m| t.starts_with(m)) {
            Line::Item
        } else {
            Line::Text
        }
    };
    let (mut from, mut to) = line_at(start);
    let own = kind(&text[from..to]);
    if matches!(own, Line::Row | Line::Heading) {
        return &text[from..to];
    }
    let mut top = own;
    while from > 0 && top != Line::Item && start - from < REACH {
        let (prev, _) = line_at(from - 1);
        let k = kind(&text[prev..from - 1]);
        if !matches!(k, Line::Text | Line::Item) {
            break;
        }
        from = prev;
        top = k;
    }
    while to < text.len() && to - end < REACH {
        let (_, next) = line_at(to + 1);
        if kind(&text[to + 1..next]) != Line::Text {
            break;
        }
        to = next;
    }
    &text[from..to]
}

/// What a Markdown line is, as far as [`paragraph`] needs to know.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Line {
    Blank,
    Row,
    Heading,
    Item,
    Text,
}

/// The word by which a passage speaks of a removed mirror as such — its removal, its
/// replacement, its being a mirror — rather than of the fact it carried: a changelog line
/// ("Removed: `agent/stream-chunk`."), a decision note ("we dropped `agent/step-end`"). Such a
/// sentence stays true only with the removed name in it.
fn speaks_of_the_removal(passage: &str) -> Option<&str> {
    // A finder per word, built once: `str::find` set up a two-way search for each word of
    // each passage. (One automaton for all the words cost more to build than the whole
    // search on a tree the size of upstream's.)
    static WORDS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::LazyLock::new(|| {
            REMOVAL_WORDS
                .iter()
                .map(|w| memchr::memmem::Finder::new(w.as_bytes()))
                .collect()
        });
    // ASCII lowering keeps byte offsets, so the word is shown as the passage writes it.
    let lower = passage.to_ascii_lowercase();
    REMOVAL_WORDS
        .iter()
        .zip(WORDS.iter())
        .find_map(|(w, finder)| Some(removal_word_at(passage, w, finder.find(lower.as_bytes())?)))
}

/// The words by which a passage speaks of the removal ([`speaks_of_the_removal`]), in the
/// order they are preferred.
const REMOVAL_WORDS: &[&str] = &[
    "remov",
    "drop",
    "delet",
    "deprecat",
    "retire",
    "replac",
    "no longer",
    "mirror",
    "migrat",
    "instead of",
    "used to",
    "legacy",
    // The same in the Chinese notes upstream keeps beside the English ones.
    "移除",
    "删除",
    "镜像",
    "废弃",
    "不再",
    "去掉",
];

/// [`speaks_of_the_removal`] with `str::find`, as it read before issue #32 item 1: the
/// reading the finders must agree with.
#[cfg(test)]
fn speaks_of_the_removal_by_word(passage: &str) -> Option<&str> {
    // ASCII lowering keeps byte offsets, so the word is shown as the passage writes it.
    let lower = passage.to_ascii_lowercase();
    REMOVAL_WORDS
        .iter()
        .find_map(|w| Some(removal_word_at(passage, w, lower.find(w)?)))
}

/// The removal word `w` found at `at` in `passage`, as the passage writes it: an ASCII word
/// runs on to the end of the passage's word (`remov` → `removed`).
fn removal_word_at<'p>(passage: &'p str, w: &str, at: usize) -> &'p str {
    if !w.is_ascii() {
        return &passage[at..at + w.len()];
    }
    let len = passage[at..]
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(passage.len() - at);
    &passage[at..at + len.max(w.len())]
}

/// The fix of an occurrence: the front end's, or for prose (a mention or a comment) the
/// suggestion to name the durable twin instead. Its edits get their line/column ranges here.
fn fix_for(
    o: &Occurrence,
    fix_at: &HashMap<(usize, usize), &crate::model::Fix>,
    event: Option<&crate::catalog::Event>,
    index: &LineIndex<'_>,
) -> Option<crate::model::Fix> {
    use crate::model::{Applicability, Edit, Fix};
    let mut fix = fix_at
        .get(&(o.start, o.end))
        .map(|f| (*f).clone())
        .or_else(|| {
            let twin = &event?.migration.as_ref()?.twin;
            matches!(o.role, Role::Mention | Role::Comment).then(|| {
                let mut edits = vec![Edit::new(o.start, o.end, twin.clone())];
                edits.extend(article_edit(index.text(), o.start, twin));
                edits.sort_by_key(|e| (e.start, e.end));
                Fix::new(
                    Applicability::Suggestion,
                    format!("name the durable `{twin}` instead"),
                    edits,
                )
            })
        })?;
    if fix.edits.is_empty() || !crate::lines::edits_valid(index.text(), &fix.edits) {
        return None;
    }
    for e in &mut fix.edits {
        e.range = text_range(index, e.start, e.end);
    }
    fix.lines = crate::lines::line_replacement(index, &fix.edits);
    Some(fix)
}

/// The article before a renamed name, when the new name needs the other one: every removed
/// name starts `agent/`, so prose says "an `agent/step-end` listener", and "an `step/end`
/// listener" would not read. `None` when there is no article or it still fits.
fn article_edit(text: &str, start: usize, new_name: &str) -> Option<crate::model::Edit> {
    let before = text.get(..start)?;
    // The name may sit in backticks or quotes.
    let before = before.strip_suffix(['`', '\'', '"']).unwrap_or(before);
    let vowel = new_name
        .chars()
        .next()
        .is_some_and(|c| "aeioAEIO".contains(c));
    let (article, replacement) = if vowel {
        (["a ", "A "], ["an ", "An "])
    } else {
        (["an ", "An "], ["a ", "A "])
    };
    article.iter().zip(replacement).find_map(|(a, r)| {
        let head = before.strip_suffix(a)?;
        // A word of its own: `an`, not the end of `can`.
        let word_start = head
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        word_start.then(|| crate::model::Edit::new(head.len(), head.len() + a.len(), r))
    })
}

#[allow(clippy::too_many_arguments)]
fn make_finding(
    s: &Source,
    index: &LineIndex<'_>,
    rule: &'static Rule,
    severity: Severity,
    event: Option<String>,
    start: usize,
    end: usize,
    message: String,
    help: String,
    note: Option<String>,
) -> Finding {
    let (line, column) = index.position(start);
    let (end_line, end_column) = index.position(end);
    let window = snippet_window(s, index, line, start, end);
    let line_text_column = index.position(window.start).1;
    let line_text_byte_column = window.start.saturating_sub(index.line_range(line).start) + 1;
    Finding {
        rule: rule.id,
        rule_name: rule.name,
        severity,
        event,
        path: s.display.clone(),
        line,
        column,
        end_line,
        end_column,
        message,
        help,
        note,
        line_text_column,
        line_text_byte_column,
        fingerprint: String::new(),
        line_text: s.text[window].to_owned(),
        fix: None,
        human: false,
    }
}

/// Lines up to this many bytes are kept whole in [`Finding::line_text`].
const LINE_TEXT_MAX: usize = 512;

/// Bytes of context kept before and after a finding on a longer line.
const LINE_TEXT_CONTEXT: usize = 160;

/// The part of `line` that a finding from `start` to `end` keeps as its snippet: the whole line
/// when it is short, else a window around the finding (bounded, so a line with thousands of
/// findings costs linear memory and output).
fn snippet_window(
    s: &Source,
    index: &LineIndex<'_>,
    line: usize,
    start: usize,
    end: usize,
) -> std::ops::Range<usize> {
    let whole = index.line_range(line);
    if whole.len() <= LINE_TEXT_MAX {
        return whole;
    }
    let from = start.saturating_sub(LINE_TEXT_CONTEXT).max(whole.start);
    let to = (end.max(start) + LINE_TEXT_CONTEXT)
        .min(start + LINE_TEXT_MAX)
        .min(whole.end);
    crate::source::floor_boundary(&s.text, from)..crate::source::ceil_boundary(&s.text, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// The sentence around `start..end`, byte by byte: what [`sentence`] finds with memchr.
    fn sentence_bytewise(text: &str, start: usize, end: usize) -> &str {
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let ends = |w: &[u8]| matches!(w, [b'.' | b'!' | b'?', b' ' | b'\t']);
        let bytes = text.as_bytes();
        let from = (line_start..start)
            .rev()
            .find(|&i| i + 1 < start && ends(&bytes[i..i + 2]))
            .map_or(line_start, |i| i + 2);
        let to = (end..line_end)
            .find(|&i| i + 1 < line_end && ends(&bytes[i..i + 2]))
            .map_or(line_end, |i| i + 1);
        &text[from..to]
    }

    /// [`wording`] with `format!`, as before issue #32 item 1: its oracle.
    fn wording_reference(
        role: Role,
        ev: &str,
        event: Option<&crate::catalog::Event>,
    ) -> (String, String) {
        let replacement = event.map_or("", |e| e.replacement.as_str());
        let see = event
            .and_then(|e| e.requirement.as_deref())
            .map_or_else(String::new, |r| format!(" (see `mirrorless explain {r}`)"));
        match role {
            Role::Subscribe => (
                format!("subscribes to removed event `{ev}`"),
                format!("{replacement}{see}"),
            ),
            Role::Emit => (
                format!("emits removed event `{ev}`"),
                format!(
                    "delete the emit: the durable event is already in the session log; consumers {replacement}{see}"
                ),
            ),
            Role::Declare => (
                format!("declares removed event `{ev}`"),
                format!("delete the declaration and migrate its users: {replacement}{see}"),
            ),
            Role::Reference => (
                format!("uses removed event `{ev}`"),
                format!("{replacement}{see}"),
            ),
            Role::Embedded => (
                format!("embedded code names removed event `{ev}`"),
                format!("migrate the embedded code: {replacement}{see}"),
            ),
            Role::Mention => (
                format!("string mentions removed event `{ev}`"),
                format!("reword it in terms of the durable event: {replacement}"),
            ),
            Role::Comment => (
                format!("comment mentions removed event `{ev}`"),
                format!("update the comment if it describes current behaviour: {replacement}"),
            ),
        }
    }

    /// Issue #32 item 1: the concatenated wording is the formatted one, for every role and
    /// every event of the catalogue (with a requirement to cite or none), and for a name the
    /// catalogue does not know.
    #[test]
    fn the_wording_is_that_of_format() {
        let catalog = Catalog::new(&[]).unwrap();
        let roles = [
            Role::Subscribe,
            Role::Emit,
            Role::Declare,
            Role::Reference,
            Role::Embedded,
            Role::Mention,
            Role::Comment,
        ];
        let mut cited = 0;
        for role in roles {
            for event in catalog.events().iter().map(Some).chain([None]) {
                cited += usize::from(event.is_some_and(|e| e.requirement.is_some()));
                let ev = event.map_or("agent/unknown", |e| e.name.as_str());
                assert_eq!(
                    wording(role, ev, event),
                    wording_reference(role, ev, event),
                    "{role:?} {ev}"
                );
            }
        }
        assert!(cited > 0, "no event of the catalogue cites a requirement");
    }

    /// [`paragraph`] as it read a numbered item before issue #32 item 1 (by the first `. ` of
    /// the line): its oracle. The Markdown paragraph around `start..end`: its lines up to a blank line, a heading or the
    /// start of another list item (a list item or a note's paragraph speaks of one thing, even
    /// across sentences); a table row is its own passage. At most a few lines either way.
    fn paragraph_reference(text: &str, start: usize, end: usize) -> &str {
        const REACH: usize = 2_000;
        let line_at = |at: usize| {
            let from = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let to = text[at..].find('\n').map_or(text.len(), |i| at + i);
            (from, to)
        };
        let kind = |line: &str| {
            let t = line.trim_start();
            let numbered = t
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if t.is_empty() {
                Line::Blank
            } else if t.starts_with('|') {
                Line::Row
            } else if t.starts_with('#') {
                Line::Heading
            } else if numbered || ["- ", "* ", "+ "].iter().any(|m| t.starts_with(m)) {
                Line::Item
            } else {
                Line::Text
            }
        };
        let (mut from, mut to) = line_at(start);
        let own = kind(&text[from..to]);
        if matches!(own, Line::Row | Line::Heading) {
            return &text[from..to];
        }
        let mut top = own;
        while from > 0 && top != Line::Item && start - from < REACH {
            let (prev, _) = line_at(from - 1);
            let k = kind(&text[prev..from - 1]);
            if !matches!(k, Line::Text | Line::Item) {
                break;
            }
            from = prev;
            top = k;
        }
        while to < text.len() && to - end < REACH {
            let (_, next) = line_at(to + 1);
            if kind(&text[to + 1..next]) != Line::Text {
                break;
            }
            to = next;
        }
        &text[from..to]
    }

    /// Issue #32 item 1: reading a numbered item by its leading digits finds the paragraph
    /// the first `. ` of the line finds, on generated Markdown (numbered items, digits and
    /// dots in the text, items, headings, rows, blank lines, long lines).
    #[test]
    fn the_paragraph_is_that_of_the_first_full_stop() {
        const PIECES: &[&str] = &[
            "1. ",
            "12. ",
            "1.",
            "1 . ",
            ". ",
            "a. ",
            "3.5. ",
            "- ",
            "* ",
            "# ",
            "| ",
            "\n",
            "\n\n",
            "  ",
            "text ",
            "é",
            "agent/turn-end",
            "2",
            ".",
        ];
        let mut rng = Rng(0x9a4a_6e1d_0c73);
        for _ in 0..5_000 {
            let text: String = (0..rng.below(30)).map(|_| rng.pick(PIECES)).collect();
            for (start, name) in text.match_indices("agent/turn-end") {
                let end = start + name.len();
                assert_eq!(
                    paragraph(&text, start, end),
                    paragraph_reference(&text, start, end),
                    "{text:?} at {start}"
                );
            }
        }
    }

    /// The fingerprints as [`assign_fingerprints`] gave them before issue #32 item 1: each
    /// finding's line stripped and hashed on its own, the repeats counted on the stripped line.
    fn assign_fingerprints_reference(findings: &mut [Finding]) {
        findings.sort_by_key(|f| (f.line, f.column, f.rule));
        let mut counts: HashMap<(String, String, String), usize> = HashMap::default();
        for f in findings {
            let normalized: String = f.line_text.chars().filter(|c| !c.is_whitespace()).collect();
            let ev = f.event.clone().unwrap_or_default();
            let n = counts
                .entry((f.rule.to_owned(), ev.clone(), normalized))
                .or_insert(0);
            f.fingerprint = baseline::fingerprint(f.rule, &ev, &f.line_text, *n);
            *n += 1;
        }
    }

    /// Issue #32 item 1: stripping each line once and hashing it once per rule and event gives
    /// every finding the fingerprint the finding-by-finding reading gives, on generated files:
    /// several findings on a line, of several rules and events, lines that differ only in
    /// white space (one count of repeats), equal lines far apart.
    #[test]
    fn fingerprints_are_those_of_the_finding_by_finding_reading() {
        const LINES: &[&str] = &[
            "bus.on('agent/turn-end', f)",
            "bus.on( 'agent/turn-end', f )",
            "\tbus.on('agent/turn-end',\u{a0}f)",
            "Removed `agent/steering`.",
            "",
            "日本 agent/step-end",
        ];
        const RULES: &[&str] = &["ML001", "ML006", "ML007"];
        const EVENTS: &[&str] = &["agent/turn-end", "agent/steering", ""];
        let mut rng = Rng(0x0f1a_9e72_3b44);
        for _ in 0..2_000 {
            let mut findings = Vec::new();
            let mut line = 1;
            for _ in 0..rng.below(12) {
                line += rng.below(2);
                let event = rng.pick(EVENTS);
                findings.push(Finding {
                    rule: rng.pick(RULES),
                    rule_name: "rule",
                    severity: crate::model::Severity::Warning,
                    event: (!event.is_empty()).then(|| event.to_owned()),
                    path: "f.md".to_owned(),
                    line,
                    column: 1 + rng.below(4),
                    end_line: line,
                    end_column: 9,
                    message: String::new(),
                    help: String::new(),
                    note: None,
                    fingerprint: String::new(),
                    // Findings of one line share its text, and lines repeat.
                    line_text: LINES[line % LINES.len()].to_owned(),
                    line_text_column: 1,
                    line_text_byte_column: 1,
                    fix: None,
                    human: false,
                });
            }
            let mut expected = findings.clone();
            assign_fingerprints_reference(&mut expected);
            assign_fingerprints(&mut findings);
            assert_eq!(findings, expected);
        }
    }

    /// Issue #32 item 1: the finders built once find the word that speaks of the removal
    /// which `str::find` finds (the first of the list that occurs, at its first occurrence,
    /// as the passage spells it), on generated passages: every word in any ASCII case, cut
    /// short, run into each other or into longer words, beside non-ASCII letters that ASCII
    /// folding leaves alone.
    #[test]
    fn the_removal_words_are_those_of_the_word_by_word_search() {
        const PIECES: &[&str] = &[
            "Removed",
            "REMOV",
            "remo",
            "DROP",
            "dropped",
            "Delet",
            "deprecated",
            "RETIRE",
            "replac",
            "no longer",
            "No Longer",
            "no  longer",
            "mirror",
            "MIRRORS",
            "migrat",
            "instead of",
            "Instead Of",
            "used to",
            "legacy",
            "移除",
            "删除",
            "镜像",
            "废弃",
            "不再",
            "去掉",
            "移",
            "é",
            "\u{212a}",
            "İ",
            " ",
            "\n",
            "-",
            "_",
            "x",
            "agent/turn-end",
        ];
        let mut rng = Rng(0x2e30_7a1b_9d05);
        let mut found = 0;
        for _ in 0..20_000 {
            let passage: String = (0..rng.below(10)).map(|_| rng.pick(PIECES)).collect();
            let expected = speaks_of_the_removal_by_word(&passage);
            found += usize::from(expected.is_some());
            let got = speaks_of_the_removal(&passage);
            assert_eq!(got, expected, "{passage:?}");
            // The same slice of the passage, not only the same text.
            assert_eq!(
                got.map(|w| span_of(&passage, w)),
                expected.map(|w| span_of(&passage, w))
            );
        }
        assert!(
            found > 5_000 && found < 19_000,
            "{found} passages speak of the removal"
        );
    }

    /// A mention's sentence is the one a byte-by-byte reading finds, wherever the mention,
    /// the line breaks and the sentence ends (`. `, `!\t`, `?`, `.` without a blank after) are.
    #[test]
    fn the_sentence_of_a_mention_is_the_bytewise_one() {
        const PIECES: &[&str] = &[
            "agent/turn-end",
            ". ",
            "! ",
            "?\t",
            ".",
            "?",
            "!",
            " ",
            "\t",
            "\n",
            "x",
            "word ",
            "é",
        ];
        let mut rng = Rng(0x5e47_e9ce);
        for _ in 0..3_000 {
            let text: String = (0..rng.below(24)).map(|_| rng.pick(PIECES)).collect();
            let text = format!("{text}agent/turn-end{}", {
                let n = rng.below(12);
                (0..n).map(|_| rng.pick(PIECES)).collect::<String>()
            });
            for (start, name) in text.match_indices("agent/turn-end") {
                let end = start + name.len();
                assert_eq!(
                    sentence(&text, start, end),
                    sentence_bytewise(&text, start, end),
                    "{text:?} at {start}"
                );
            }
        }
    }
}
