//! A lane of generated cases: draws the cases of the chunks it is given, runs those of this
//! shard on its driver, evaluates them and counts them, and hands the runner only what it
//! must see in order — the counts of a stretch of cases, and each case that may need a
//! counterexample or ended in a fault.
//!
//! One lane runs on the runner's own thread (`-j 1`), or one per worker thread of the pool
//! ([`super::pool`]). A lane draws the trees of a chunk from the RNG state the chunk starts at
//! before it runs any of them, and hands on the state after them, so that the next chunk can
//! start on another lane at once: the cases are drawn once each, in order, from the profile's
//! one RNG, whatever lane runs them. The runner, taking the lanes' items in case order, counts
//! the same run whatever `-j`. What a worker allocates for a case (its tree, its observation,
//! its verdict) is freed on the worker's thread; only the rare case the runner must see
//! crosses threads.

use super::execute::{Ran, run_one};
use super::shard::Shard;
use super::tally::{Judged, Tally, Target, judge};
use super::{CaseIds, Config};
use crate::driver::{Driver, HarnessError, Observation};
use crate::oracle::Verdict;
use crate::scenario::Case;
use crate::stop::Stop;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, TestRng, TestRunner};
use std::collections::VecDeque;

/// The most generated cases in a chunk: the unit a lane is given, and the most cases one
/// [`Segment`] counts.
const MAX_CHUNK: u64 = 32;

/// The cases per chunk of a profile's `cases` generated cases on `lanes` lanes: at most
/// [`MAX_CHUNK`], and few enough that every lane gets a few chunks (so that `-j N` runs N
/// implementation processes even on a short run). Chunks are a unit of work, not of
/// results: a run does not depend on their size.
pub(super) fn chunk_size(cases: u64, lanes: usize) -> u64 {
    let lanes = u64::try_from(lanes).unwrap_or(u64::MAX).max(1);
    (cases / lanes.saturating_mul(4)).clamp(1, MAX_CHUNK)
}

/// What a lane hands the runner, in case order.
pub(super) enum Item {
    /// The counts of a stretch of cases that need nothing more.
    Segment(Segment),
    /// A case run to a verdict with a requirement this lane has not handed over before: the
    /// runner counts it and may shrink it. Its coverage is in the segment before it.
    Case(Box<Drawn>),
    /// A case that ended in a harness fault the driver recovers from.
    Fault(HarnessError),
    /// A case that ended the lane: a stop, or a fault the driver does not recover from.
    Halt(HarnessError),
    /// The run was stopped before the next case was drawn.
    Stopped,
    /// The case generator failed.
    Error(HarnessError),
}

/// A stretch of consecutive generated cases, counted by a lane.
#[derive(Default)]
pub(super) struct Segment {
    /// Cases drawn (their coverage is in `tally`).
    pub(super) drawn: u64,
    /// Of them, cases run to a verdict (their findings are in `tally`).
    pub(super) ran: u64,
    pub(super) tally: Tally,
    /// The ids of the cases run, in order, when the run lists them.
    pub(super) ids: CaseIds,
}

/// A generated case run to a verdict that the runner must see.
pub(super) struct Drawn {
    /// Its position among the profile's generated cases.
    pub(super) index: u64,
    /// The RNG state it was drawn from (its tree is drawn again from it to shrink).
    pub(super) rng: TestRng,
    /// Its id when the run needs it, else empty.
    pub(super) id: String,
    pub(super) case: Case,
    pub(super) verdict: Verdict,
    pub(super) obs: Box<Observation>,
}

/// One lane: the chunk it works on, what it has counted.
pub(super) struct Lane<'a, S: Strategy> {
    strategy: &'a S,
    shard: &'a Shard<'a>,
    config: &'a Config,
    stop: &'a Stop,
    /// The chunk's trees not yet run, each with the RNG state it was drawn from.
    trees: VecDeque<(TestRng, S::Tree)>,
    /// The position of the first of them.
    next: u64,
    /// Cases per chunk ([`chunk_size`]).
    chunk: u64,
    /// The requirements (and kinds) this lane has handed over a case for: a later case of
    /// this lane that counts against them alone needs no counterexample.
    handed: Vec<Target>,
    segment: Segment,
    /// The item to hand over after the segment before it.
    pending: Option<Item>,
    /// Whether the lane has ended (a halt, a stop or a generator failure).
    pub(super) ended: bool,
}

impl<'a, S: Strategy<Value = Case>> Lane<'a, S> {
    /// A lane over the generated cases of `strategy`.
    pub(super) fn new(
        strategy: &'a S,
        shard: &'a Shard<'a>,
        config: &'a Config,
        stop: &'a Stop,
        chunk: u64,
    ) -> Self {
        Lane {
            strategy,
            shard,
            config,
            stop,
            trees: VecDeque::new(),
            next: 0,
            chunk: chunk.max(1),
            handed: Vec::new(),
            segment: Segment::default(),
            pending: None,
            ended: false,
        }
    }

    /// Starts chunk `chunk` (chunks are given to a lane in increasing order) at the RNG state
    /// `rng` after the chunks before it: draws its trees, and returns the state after them,
    /// where the next chunk starts. `Err` when the generator fails (the lane has ended).
    pub(super) fn start(&mut self, chunk: u64, rng: TestRng) -> Result<TestRng, HarnessError> {
        self.next = chunk.saturating_mul(self.chunk);
        let end = self.next.saturating_add(self.chunk).min(self.config.cases);
        self.trees.clear();
        let mut runner = TestRunner::new_with_rng(PtConfig::default(), rng);
        for _ in self.next..end {
            let rng = runner.rng().clone();
            match self.strategy.new_tree(&mut runner) {
                Ok(tree) => self.trees.push_back((rng, tree)),
                Err(e) => {
                    self.ended = true;
                    self.trees.clear();
                    return Err(HarnessError(format!("the case generator failed: {e}")));
                }
            }
        }
        Ok(runner.rng().clone())
    }

    /// The next item of the chunk, running its cases on `driver` until there is one; `None`
    /// when the chunk (or the lane) is over.
    pub(super) fn next_item(&mut self, driver: &mut dyn Driver) -> Option<Item> {
        if let Some(item) = self.pending.take() {
            return Some(item);
        }
        while !self.ended && !self.trees.is_empty() {
            if self.stop.reason().is_some() {
                self.ended = true;
                return Some(self.hand(Item::Stopped));
            }
            if let Some(item) = self.step(driver) {
                return Some(self.hand(item));
            }
        }
        self.flush()
    }

    /// The item after the segment counted so far, if any (the item then waits its turn).
    fn hand(&mut self, item: Item) -> Item {
        match self.flush() {
            Some(segment) => {
                self.pending = Some(item);
                segment
            }
            None => item,
        }
    }

    /// The segment counted so far, unless it is empty.
    fn flush(&mut self) -> Option<Item> {
        (self.segment.drawn > 0).then(|| Item::Segment(std::mem::take(&mut self.segment)))
    }

    /// Builds, runs and counts the chunk's next case; an item when the runner must see it.
    fn step(&mut self, driver: &mut dyn Driver) -> Option<Item> {
        let (rng, tree) = self.trees.pop_front()?;
        let index = self.next;
        self.next += 1;
        let case = tree.current();
        drop(tree);
        // Coverage is of every case drawn, whichever shard runs it and however it ran.
        self.segment.drawn += 1;
        self.segment.tally.cover(&case);
        let id = self.shard.id_of(&case);
        if !self.shard.includes(index, &id) {
            return None;
        }
        let (verdict, obs) = match run_one(driver, &case, self.stop) {
            Ran::Verdict(v, obs) => (v, obs),
            Ran::Fault(e) => return Some(Item::Fault(e)),
            Ran::Halt(e) => {
                self.ended = true;
                return Some(Item::Halt(e));
            }
        };
        let judged = judge(&verdict);
        let mut new = false;
        for j in &judged {
            if let Judged::Counted(t) = j
                && !self.handed.contains(t)
            {
                self.handed.push(*t);
                new = true;
            }
        }
        if new {
            return Some(Item::Case(Box::new(Drawn {
                index,
                rng,
                id,
                case,
                verdict,
                obs,
            })));
        }
        self.segment.ran += 1;
        self.segment.tally.count(&verdict, &judged);
        if self.config.case_ids {
            self.segment.ids.push(&id);
        }
        None
    }
}
