//! `--partition K/N`: which cases of a run one shard of a CI matrix executes.
//!
//! The pattern is cargo-nextest's: `count:K/N` takes every N-th case starting at the K-th
//! (1-based, by position in the run), `hash:K/N` takes the cases whose content-hash id falls in
//! bucket K of N (stable when cases are added or removed elsewhere). A bare `K/N` means
//! `count:K/N`. Every shard still generates every case from the seed, so shards 1..=N of one
//! seed execute disjoint sets whose union is exactly the unsharded run.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How cases are assigned to shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartitionKind {
    /// By position: case `i` (0-based) belongs to shard `i % N + 1`.
    Count,
    /// By content hash: a case belongs to shard `hash % N + 1`.
    Hash,
}

/// One shard of a partitioned run: shard `shard` of `total` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Partition {
    /// How cases are assigned.
    pub kind: PartitionKind,
    /// This shard, 1..=total.
    pub shard: u64,
    /// The number of shards.
    pub total: u64,
}

impl Partition {
    /// Whether the case at `position` (0-based within its part of the run: the profile's
    /// corpus cases, or its generated cases) with content-hash id `id` belongs to this shard.
    pub fn includes(&self, position: u64, id: &str) -> bool {
        let bucket = match self.kind {
            PartitionKind::Count => position % self.total,
            PartitionKind::Hash => id_hash(id) % self.total,
        };
        bucket + 1 == self.shard
    }
}

/// The hash of a case id: its hex digits read as a number, or (for an id that is not hex) a
/// stable FNV-1a hash of its bytes.
fn id_hash(id: &str) -> u64 {
    u64::from_str_radix(id, 16).unwrap_or_else(|_| {
        id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    })
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            PartitionKind::Count => "count",
            PartitionKind::Hash => "hash",
        };
        write!(f, "{kind}:{}/{}", self.shard, self.total)
    }
}

impl FromStr for Partition {
    type Err = String;

    /// Parses `K/N`, `count:K/N` or `hash:K/N` with `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, rest) = match s.split_once(':') {
            Some(("count", rest)) => (PartitionKind::Count, rest),
            Some(("hash", rest)) => (PartitionKind::Hash, rest),
            Some((other, _)) => {
                return Err(format!(
                    "unknown partition kind `{other}` in `{s}`: use `count:K/N` or `hash:K/N`"
                ));
            }
            None => (PartitionKind::Count, s),
        };
        let Some((k, n)) = rest.split_once('/') else {
            return Err(format!("`{s}` is not a partition: use K/N, e.g. 1/3"));
        };
        let number = |v: &str, what: &str| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| format!("{what} `{v}` in `{s}` is not a whole number"))
        };
        let shard = number(k, "the shard")?;
        let total = number(n, "the shard count")?;
        if total == 0 {
            return Err(format!("`{s}`: the shard count must be at least 1"));
        }
        if shard == 0 || shard > total {
            return Err(format!(
                "`{s}`: the shard must be between 1 and {total} (shards are numbered from 1)"
            ));
        }
        Ok(Partition { kind, shard, total })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_nextest_forms() {
        let p: Partition = "2/3".parse().expect("valid");
        assert_eq!((p.kind, p.shard, p.total), (PartitionKind::Count, 2, 3));
        let p: Partition = "hash:3/3".parse().expect("valid");
        assert_eq!(p.kind, PartitionKind::Hash);
        assert_eq!(p.to_string(), "hash:3/3");
        assert_eq!("count:1/1".parse::<Partition>().map(|p| p.total), Ok(1));
    }

    #[test]
    fn refuses_shards_outside_the_range() {
        for bad in ["0/3", "4/3", "1/0", "x/3", "1/y", "3", "slice:1/2", "-1/3"] {
            let e = bad.parse::<Partition>().expect_err(bad);
            assert!(e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn every_case_belongs_to_exactly_one_shard() {
        for kind in [PartitionKind::Count, PartitionKind::Hash] {
            for position in 0..50u64 {
                let id = format!("{:016x}", position.wrapping_mul(0x9e37_79b9_7f4a_7c15));
                let owners = (1..=4)
                    .filter(|&shard| {
                        Partition {
                            kind,
                            shard,
                            total: 4,
                        }
                        .includes(position, &id)
                    })
                    .count();
                assert_eq!(owners, 1, "{kind:?} {position}");
            }
        }
    }
}
