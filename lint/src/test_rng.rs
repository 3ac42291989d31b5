//! The one small deterministic generator (xorshift) of the crate's generated tests, so a
//! failure names its seed: the unit tests use it as `crate::test_rng`, and so do the
//! integration tests, whose `tests/it.rs` includes this file (`#[path = "../src/test_rng.rs"]
//! mod test_rng;`).

/// A xorshift64 generator; the seed must not be 0.
pub(crate) struct Rng(pub(crate) u64);

#[allow(dead_code)] // Each test includes the file and uses what it needs.
impl Rng {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `list` (not empty).
    pub(crate) fn pick<'a, T: ?Sized>(&mut self, list: &[&'a T]) -> &'a T {
        list[self.below(list.len())]
    }
}
