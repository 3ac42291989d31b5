//! The removed-event catalogue the linter matches: the shared vocabulary
//! ([`REMOVED_MIRRORS`]) plus any extra events from the configuration. There is no second
//! list of names in this crate.

use aho_corasick::{AhoCorasick, MatchKind};
use memchr::memmem;
use mirrorless_conformance::vocab::mirrors::{REMOVED_MIRRORS, RemovedMirror};

/// One event the linter flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The exact event name, e.g. `agent/turn-start`.
    pub name: String,
    /// What to use instead, one imperative phrase.
    pub replacement: String,
    /// The requirement that forbids it (`MIRROR-3`), if it comes from the shared catalogue.
    pub requirement: Option<String>,
    /// Its durable twin and argument mapping, when known: what fixes rewrite to.
    pub migration: Option<Migration>,
}

/// How code using a removed event migrates: the durable twin to filter on `session/event`,
/// and where each argument the event passed lives in the twin's `data`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migration {
    /// The durable twin under 2026-07 (the profile of positional handlers).
    pub twin: String,
    /// The durable twin under 2026-08 (the profile of payload-object handlers).
    pub twin_2026_08: String,
    /// The arguments after the agent, in positional order (also the payload keys).
    pub arguments: Vec<Argument>,
    /// Whether every 2026-08 twin event is one the removed event announced.
    pub one_to_one_2026_08: bool,
    /// When a test's stand-in emit can become the `session/event` it stands for: the fields
    /// the 2026-07 twin's `data` holds beyond the arguments, with their stand-in values
    /// (`(field, value, what the value says)`); `None` when the twin's other fields are unknown.
    pub stand_in_data: Option<Vec<(String, String, String)>>,
}

/// One argument of a removed event and its durable field per profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Argument {
    /// The argument (payload key) name.
    pub name: String,
    /// The field of the 2026-07 twin's `data`.
    pub field: Option<String>,
    /// The field of the 2026-08 twin's `data`.
    pub field_2026_08: Option<String>,
}

impl Migration {
    fn of(m: &RemovedMirror) -> Migration {
        Migration {
            twin: m.durable_twin.to_owned(),
            twin_2026_08: m.durable_twin_2026_08.to_owned(),
            arguments: m
                .arguments
                .iter()
                .map(|a| Argument {
                    name: a.name.to_owned(),
                    field: Some(a.field.to_owned()),
                    field_2026_08: a.field_2026_08.map(str::to_owned),
                })
                .collect(),
            one_to_one_2026_08: m.twin_one_to_one_2026_08,
            stand_in_data: Some(
                m.twin_data_beyond_arguments
                    .iter()
                    .map(|f| (f.field.to_owned(), f.stand_in.to_owned(), f.says.to_owned()))
                    .collect(),
            ),
        }
    }
}

/// The leftmost-longest automaton over the names.
fn names_automaton(names: &[&str]) -> Result<AhoCorasick, String> {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(names)
        .map_err(|e| format!("cannot build the event matcher: {e}"))
}

/// The set of removed events plus a fast matcher that finds their exact names in text.
#[derive(Debug, Clone)]
pub struct Catalog {
    events: Vec<Event>,
    /// The names' automaton, built only when the floor cannot find them (`floor.starts` is
    /// `None`): on the catalogues this crate ships it never is, and building it cost a run's
    /// serial start more than a small tree's search (issue 32 item 1).
    matcher: Option<AhoCorasick>,
    /// The names' and namespace prefixes' automaton, built on the first
    /// [`Catalog::prefilter_hits`] (a Rust file's comment test): most runs never ask.
    prefilter: std::sync::OnceLock<Option<AhoCorasick>>,
    /// What the prefilter matches: every name and each namespace prefix, sorted.
    needles: Vec<String>,
    floor: Floor,
}

/// The substrings every file that can hold a finding contains: each event's namespace prefix
/// (`agent/`), or the whole name of an event without one. A handful of SIMD substring
/// searches (`memmem`), so the bytes of a file without any are passed over at memory speed,
/// where an automaton over names that all start alike stops at every `a`.
#[derive(Debug, Clone)]
struct Floor {
    /// Minimal needles: none contains another (a file holding the longer one holds the
    /// shorter), so each file is searched once per needle at most.
    needles: Vec<memmem::Finder<'static>>,
    /// Per needle, the names that begin with it (those whose namespace it is, or the name
    /// itself): what a hit of the needle is checked against by [`Catalog::may_contain_name`].
    names: Vec<Vec<Vec<u8>>>,
    /// Per needle, the events whose names start with it, longest name first — when every
    /// name starts with a needle and no needle overlaps itself (`agent/`), so that every
    /// match of a name starts at a needle hit `memmem` reports: [`Catalog::find_names`] then
    /// looks for names at those hits only. `None` otherwise (the automaton is used).
    starts: Option<Vec<Vec<usize>>>,
}

impl Floor {
    fn new(names: &[&str]) -> Floor {
        let mut needles: Vec<&str> = names
            .iter()
            .map(|n| n.find('/').map_or(*n, |i| &n[..=i]))
            .collect();
        needles.sort_by_key(|n| (n.len(), *n));
        needles.dedup();
        let mut minimal: Vec<&str> = Vec::new();
        for n in needles {
            if !minimal.iter().any(|m| n.contains(m)) {
                minimal.push(n);
            }
        }
        let starts: Vec<Vec<usize>> = (minimal.iter())
            .map(|m| {
                let mut events: Vec<usize> = (0..names.len())
                    .filter(|&e| names[e].starts_with(m))
                    .collect();
                events.sort_by_key(|&e| std::cmp::Reverse(names[e].len()));
                events
            })
            .collect();
        // A needle with a border (`aa`, `abab`) can overlap itself, and `memmem` reports
        // non-overlapping hits only.
        let no_border =
            |m: &str| (1..m.len()).all(|k| !m.is_char_boundary(k) || !m.ends_with(&m[..k]));
        let exact = starts.iter().map(Vec::len).sum::<usize>() == names.len()
            && minimal.iter().all(|m| no_border(m));
        let tails = minimal
            .iter()
            .map(|m| {
                (names.iter())
                    .filter_map(|n| n.find(m).map(|at| n.as_bytes()[at..].to_vec()))
                    .filter(|tail| tail.len() >= m.len())
                    .collect()
            })
            .collect();
        Floor {
            needles: minimal
                .iter()
                .map(|m| memmem::Finder::new(m.as_bytes()).into_owned())
                .collect(),
            names: tails,
            starts: exact.then_some(starts),
        }
    }
}

/// Whether `rest` (the text from a namespace hit) may begin the name `name`: it spells `name`,
/// or a start of it up to the end of a string piece, an escape or a placeholder
/// ([`Catalog::may_assemble_name`]).
fn may_begin(rest: &[u8], name: &[u8]) -> bool {
    for (i, &c) in name.iter().enumerate() {
        match rest.get(i) {
            Some(&b) if b == c => {}
            Some(b'"' | b'\\' | b'{') | None => return true,
            Some(_) => return false,
        }
    }
    true
}

/// A name found in text: byte range and index into [`Catalog::events`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameMatch {
    /// Start byte.
    pub start: usize,
    /// End byte (exclusive).
    pub end: usize,
    /// Index of the event in the catalogue.
    pub event: usize,
}

impl Catalog {
    /// The shared catalogue plus `extra` events (from configuration). An extra event with the
    /// name of a catalogue event replaces its advice (and its migration, when it declares one).
    pub fn new(extra: &[Event]) -> Result<Catalog, String> {
        let mut events: Vec<Event> = REMOVED_MIRRORS
            .iter()
            .map(|m| Event {
                name: m.name.to_owned(),
                replacement: m.replacement.to_owned(),
                requirement: Some(m.requirement.to_owned()),
                migration: Some(Migration::of(m)),
            })
            .collect();
        for e in extra {
            match events.iter_mut().find(|known| known.name == e.name) {
                Some(known) => {
                    known.replacement = e.replacement.clone();
                    if e.migration.is_some() {
                        known.migration = e.migration.clone();
                    }
                }
                None => events.push(e.clone()),
            }
        }
        let names: Vec<&str> = events.iter().map(|e| e.name.as_str()).collect();
        let floor = Floor::new(&names);
        let matcher = match floor.starts {
            Some(_) => None,
            None => Some(names_automaton(&names)?),
        };
        // The prefilter also matches each namespace prefix (`agent/`), so names assembled
        // by `concat!`/`format!` are parsed too.
        let mut needles: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        for n in &names {
            if let Some(i) = n.find('/') {
                needles.push(n[..=i].to_owned());
            }
        }
        needles.sort();
        needles.dedup();
        Ok(Catalog {
            events,
            matcher,
            prefilter: std::sync::OnceLock::new(),
            needles,
            floor,
        })
    }

    /// Every event, shared catalogue first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The event with exactly this name.
    pub fn lookup(&self, name: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.name == name)
    }

    /// Whether `bytes` may contain a removed name (cheap byte-level test): a removed name or
    /// its namespace prefix (`agent/`, which a name assembled by `concat!`, `format!` or `+`
    /// starts with) occurs in it. Every file that can hold a finding of a name passes.
    pub fn may_contain(&self, bytes: &[u8]) -> bool {
        self.floor.needles.iter().any(|f| f.find(bytes).is_some())
    }

    /// Whether a removed name occurs in `bytes` as a substring (delimited or not): a superset
    /// of [`Catalog::find_names`] being non-empty, at the cost of [`Catalog::may_contain`]
    /// plus a comparison at each namespace hit.
    pub fn may_contain_name(&self, bytes: &[u8]) -> bool {
        let floor = &self.floor;
        floor.needles.iter().zip(&floor.names).any(|(f, names)| {
            f.find_iter(bytes).any(|at| {
                let rest = &bytes[at..];
                names.iter().any(|n| rest.starts_with(n))
            })
        })
    }

    /// Whether `bytes` may hold a removed name, whole or assembled from pieces of string
    /// (`concat!("agent/", "turn-end")`, `format!("agent/{}", kind)`, `NS.to_owned() + …`):
    /// the pieces of an assembled name join at a piece's end, so the piece that holds a name's
    /// namespace (`agent/`) holds the start of the name up to its closing quote. At a namespace
    /// hit, the bytes that follow either spell a name's start up to a `"` (the piece ends), or
    /// reach a `\` or `{` (an escape or a placeholder, which this byte test does not read), or
    /// spell a whole name; a hit followed by anything else (`agent/pre-step"`, a word in
    /// prose) cannot begin one. A superset of [`Catalog::may_contain_name`], a subset of
    /// [`Catalog::may_contain`].
    pub fn may_assemble_name(&self, bytes: &[u8]) -> bool {
        let floor = &self.floor;
        floor.needles.iter().zip(&floor.names).any(|(f, names)| {
            f.find_iter(bytes)
                .any(|at| names.iter().any(|n| may_begin(&bytes[at..], n)))
        })
    }

    /// Start offsets of every prefilter match (names and namespace prefixes).
    /// `None` only if the automaton cannot be built (patterns beyond its limits, which a
    /// catalogue of event names never reaches).
    pub fn prefilter_hits(&self, bytes: &[u8]) -> Option<Vec<usize>> {
        let prefilter = self
            .prefilter
            .get_or_init(|| AhoCorasick::new(&self.needles).ok());
        Some(
            prefilter
                .as_ref()?
                .find_iter(bytes)
                .map(|m| m.start())
                .collect(),
        )
    }

    /// Every exact, delimited occurrence of a removed name in `text`. A name continued by
    /// more name characters (`agent/turn-started`) or preceded by them
    /// (`subagent/turn-start`, `/agent/turn-start`) is a different name and is not matched.
    pub fn find_names(&self, text: &str) -> Vec<NameMatch> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        for (start, end, event) in self.raw_matches(bytes) {
            let before = start.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(end).copied();
            let after2 = bytes.get(end + 1).copied();
            let name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'/');
            if before.is_some_and(|b| name_byte(b) || b == b'.') {
                continue;
            }
            if after.is_some_and(name_byte) {
                continue;
            }
            if after == Some(b'.') && after2.is_some_and(|b| b.is_ascii_alphanumeric()) {
                continue;
            }
            out.push(NameMatch { start, end, event });
        }
        out
    }

    /// The leftmost-longest, non-overlapping occurrences of the names in `bytes` (start, end,
    /// event), delimited or not. Through the floor when every name starts at a needle hit: a
    /// SIMD scan for `agent/`, then a comparison of the names at each hit; the automaton
    /// otherwise.
    fn raw_matches(&self, bytes: &[u8]) -> Vec<(usize, usize, usize)> {
        let Some(starts) = &self.floor.starts else {
            // `Catalog::new` builds the automaton whenever the floor has no starts.
            debug_assert!(self.matcher.is_some());
            return (self.matcher.iter())
                .flat_map(|matcher| matcher.find_iter(bytes))
                .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
                .collect();
        };
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for (k, needle) in self.floor.needles.iter().enumerate() {
            hits.extend(needle.find_iter(bytes).map(|at| (at, k)));
        }
        if self.floor.needles.len() > 1 {
            hits.sort_unstable();
        }
        let mut out = Vec::new();
        let mut next = 0;
        for (at, k) in hits {
            if at < next {
                continue;
            }
            let rest = &bytes[at..];
            if let Some(&e) =
                (starts[k].iter()).find(|&&e| rest.starts_with(self.events[e].name.as_bytes()))
            {
                next = at + self.events[e].name.len();
                out.push((at, next, e));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// An extra event of a project's configuration.
    fn extra(name: &str) -> Event {
        Event {
            name: name.to_owned(),
            replacement: "x".to_owned(),
            requirement: None,
            migration: None,
        }
    }

    /// The floor is a superset of the exact matches: whatever `find_names` finds,
    /// `may_contain_name` and `may_contain` admit, for the shared catalogue and for extra
    /// events with and without a namespace (one namespace inside another, `agent/` in
    /// `subagent/`), on texts generated from every name's pieces.
    #[test]
    fn the_floor_admits_every_text_holding_a_name() {
        let catalogs = [
            Catalog::new(&[]).unwrap(),
            Catalog::new(&[extra("use strict"), extra("subagent/run")]).unwrap(),
            Catalog::new(&[extra("a"), extra("x/y/z")]).unwrap(),
        ];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut next = |n: usize| rng.below(n);
        let mut exact = 0;
        for c in &catalogs {
            let mut pieces: Vec<String> = vec![" ".into(), "\"".into(), "-".into(), "/".into()];
            for e in c.events() {
                pieces.push(e.name.clone());
                let half = e.name.len() / 2;
                pieces.push(e.name[..half].to_owned());
                pieces.push(e.name[half..].to_owned());
            }
            for _ in 0..4000 {
                let text: String = (0..1 + next(6))
                    .map(|_| pieces[next(pieces.len())].as_str())
                    .collect();
                let found = !c.find_names(&text).is_empty();
                exact += usize::from(found);
                assert!(!found || c.may_contain_name(text.as_bytes()), "{text:?}");
                assert!(
                    !c.may_contain_name(text.as_bytes()) || c.may_contain(text.as_bytes()),
                    "{text:?}"
                );
            }
        }
        assert!(exact > 1000, "{exact} texts with a name");
    }

    /// Issue 32 item 1: a run builds no automaton it does not use (the shipped catalogue's
    /// names are found through the floor; the prefilter's automaton is built on its first
    /// question), and the lazily built prefilter answers as one built up front.
    #[test]
    fn automata_are_built_only_when_asked() {
        let shipped = Catalog::new(&[]).unwrap();
        assert!(shipped.matcher.is_none());
        assert!(shipped.prefilter.get().is_none());
        let text = "x agent/ agent/turn-start agentagent/steering; tool/run aa";
        for c in [
            shipped,
            Catalog::new(&[extra("tool/run"), extra("aa")]).unwrap(),
        ] {
            let eager = AhoCorasick::new(&c.needles).unwrap();
            let hits: Vec<usize> = eager.find_iter(text).map(|m| m.start()).collect();
            assert!(!hits.is_empty());
            assert_eq!(c.prefilter_hits(text.as_bytes()), Some(hits));
            assert!(c.prefilter.get().is_some());
        }
        assert!(Catalog::new(&[extra("aa")]).unwrap().matcher.is_some());
    }

    /// The search through the floor finds what the automaton finds (issue 32 item 1: the names
    /// are looked for at the hits of a SIMD scan for `agent/`, not by an automaton stopping at
    /// every `a`), for the shared catalogue and extra events with and without a namespace.
    #[test]
    fn the_floor_search_finds_what_the_automaton_finds() {
        let catalogs = [
            Catalog::new(&[]).unwrap(),
            Catalog::new(&[extra("agent/turn-start-x"), extra("tool/run")]).unwrap(),
            Catalog::new(&[extra("use strict"), extra("subagent/run")]).unwrap(),
            Catalog::new(&[extra("aa"), extra("x/y/z")]).unwrap(),
        ];
        assert!(catalogs[0].floor.starts.is_some() && catalogs[1].floor.starts.is_some());
        assert!(catalogs[3].floor.starts.is_none(), "`aa` overlaps itself");
        let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
        let mut next = |n: usize| rng.below(n);
        let mut found = 0;
        for c in &catalogs {
            let names: Vec<&str> = c.events().iter().map(|e| e.name.as_str()).collect();
            let matcher = names_automaton(&names).expect("a handful of names");
            let mut pieces: Vec<String> = vec![" ".into(), "-".into(), "/".into(), "a".into()];
            for e in c.events() {
                pieces.push(e.name.clone());
                pieces.push(e.name[..e.name.len() / 2].to_owned());
                pieces.push(e.name[e.name.len() / 2..].to_owned());
            }
            for _ in 0..4000 {
                let text: String = (0..1 + next(8))
                    .map(|_| pieces[next(pieces.len())].as_str())
                    .collect();
                let automaton: Vec<(usize, usize, usize)> = (matcher.find_iter(text.as_bytes()))
                    .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
                    .collect();
                found += automaton.len();
                assert_eq!(c.raw_matches(text.as_bytes()), automaton, "{text:?}");
            }
        }
        assert!(found > 4000, "{found} names found");
    }

    #[test]
    fn names_match_exactly_and_near_misses_do_not() {
        let c = Catalog::new(&[]).unwrap();
        let found = |t: &str| -> Vec<String> {
            c.find_names(t)
                .iter()
                .map(|m| t[m.start..m.end].to_owned())
                .collect()
        };
        assert_eq!(found("on(\"agent/turn-start\")"), vec!["agent/turn-start"]);
        assert_eq!(found("see agent/step-end."), vec!["agent/step-end"]);
        for miss in [
            "agent/turn-stopping",
            "agent/step-result",
            "agent/status",
            "session/turn-end",
            "steering/message",
            "assistant/chunk",
            "turn/start",
            "workflow/step-started",
            "stream-chunk assembler",
            "agent/turn-started",
            "subagent/turn-start",
            "/agent/turn-start",
            "agent/step-end.json",
            "agent/turn-start/ack",
        ] {
            assert!(found(miss).is_empty(), "{miss} matched");
        }
    }
}
