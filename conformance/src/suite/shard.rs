//! A profile's share of a partitioned run (`--partition K/N`): which of its corpus and
//! generated cases this shard executes, and how many.

use super::config::rng_for;
use super::{CaseFile, Config, PartitionKind};
use crate::driver::HarnessError;
use crate::scenario::Case;
use crate::stop::Stop;
use crate::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, TestRunner};

/// The cases of one profile this shard executes (all of them, unpartitioned).
pub(super) struct Shard<'c> {
    config: &'c Config,
    /// Whether a case's id is needed: to list it, or to shard by it.
    need_id: bool,
    /// The profile's corpus cases, in order, each with whether this shard runs it.
    pub(super) replay: Vec<(&'c (String, CaseFile), bool)>,
    /// How many of them this shard runs.
    pub(super) replay_mine: u64,
    /// How many of the profile's generated cases this shard runs.
    pub(super) generated_mine: u64,
}

impl<'c> Shard<'c> {
    /// This shard's share of `profile`: of its cases in `corpus`, and of the generated ones
    /// (for hash shards, counted by drawing them once more; a stop ends that count early).
    pub(super) fn of<S: Strategy<Value = Case>>(
        config: &'c Config,
        stop: &Stop,
        profile: Profile,
        corpus: &'c [(String, CaseFile)],
        strategy: &S,
    ) -> Result<Shard<'c>, HarnessError> {
        // The case id is only computed where it is needed: to list it, or to shard by it.
        let need_id = config.case_ids
            || config
                .partition
                .is_some_and(|p| p.kind == PartitionKind::Hash);
        let mut shard = Shard {
            config,
            need_id,
            replay: Vec::new(),
            replay_mine: 0,
            generated_mine: 0,
        };
        shard.replay = corpus
            .iter()
            .filter(|(_, f)| f.case.profile == profile)
            .enumerate()
            .map(|(i, entry)| (entry, shard.includes(i as u64, &shard.id_of(&entry.1.case))))
            .collect();
        shard.replay_mine = shard.replay.iter().filter(|(_, mine)| *mine).count() as u64;
        shard.generated_mine = match config.partition {
            None => config.cases,
            // Positions i < cases with i % total == shard - 1 (no overflow near u64::MAX).
            Some(p) if p.kind == PartitionKind::Count => {
                config.cases / p.total + u64::from(config.cases % p.total >= p.shard)
            }
            Some(_) => {
                // Hash shards: draw the cases once more to know how many are this shard's.
                let mut runner =
                    TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, profile));
                let mut n = 0;
                for i in 0..config.cases {
                    if stop.reason().is_some() {
                        break;
                    }
                    let tree = strategy
                        .new_tree(&mut runner)
                        .map_err(|e| HarnessError(format!("the case generator failed: {e}")))?;
                    n += u64::from(shard.includes(i, &tree.current().id()));
                }
                n
            }
        };
        Ok(shard)
    }

    /// The case's id when it is needed, else empty.
    pub(super) fn id_of(&self, case: &Case) -> String {
        if self.need_id {
            case.id()
        } else {
            String::new()
        }
    }

    /// Whether this shard runs the case at `position` (among the profile's corpus cases, or
    /// its generated ones) with id `id`.
    pub(super) fn includes(&self, position: u64, id: &str) -> bool {
        self.config
            .partition
            .is_none_or(|p| p.includes(position, id))
    }
}
