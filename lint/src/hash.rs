//! The hash maps and sets of the linter: std's tables with foldhash's hasher, seeded per
//! process. SipHash, std's default, was a tenth of the instructions of a lint of a small tree
//! (issue 32 item 1): the analysis keys maps by short names and spans, for which foldhash is
//! several times faster while keeping a random seed against inputs crafted to collide.

/// A [`std::collections::HashMap`] with foldhash's seeded hasher.
pub type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// A [`std::collections::HashSet`] with foldhash's seeded hasher.
pub type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
