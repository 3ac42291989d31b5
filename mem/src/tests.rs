//! The functions against byte-at-a-time references: C's `memcpy`, `memmove` and `memcmp`
//! contracts (C17 7.24.2.1, 7.24.2.2, 7.24.4.1), on every length up to past the `rep movsb`
//! threshold, at every alignment of both ends, with every overlap in both directions.
//!
//! The references are plain loops; this crate is `no_builtins`, so they stay loops.

use super::*;
use proptest::prelude::*;

/// Bytes that differ from their neighbours and from the destination's filler, so a byte
/// copied from the wrong place or not copied at all shows.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) | 1)
        .collect()
}

/// `memmove`'s contract: the result is as if the source were first copied to a temporary.
/// Byte loops, not `copy_from_slice`: on musl that is the function under test.
#[allow(clippy::manual_memcpy)]
fn reference_move(buf: &mut [u8], dst: usize, src: usize, n: usize) {
    let mut temporary = vec![0u8; n];
    for i in 0..n {
        temporary[i] = buf[src + i];
    }
    for i in 0..n {
        buf[dst + i] = temporary[i];
    }
}

fn reference_compare(a: &[u8], b: &[u8]) -> i32 {
    for i in 0..a.len() {
        if a[i] != b[i] {
            return i32::from(a[i]) - i32::from(b[i]);
        }
    }
    0
}

/// Lengths to try exhaustively: everything to 300 (every small-copy branch and the first
/// block loops), then around each boundary of the long paths.
fn lengths() -> impl Iterator<Item = usize> {
    (0..=300).chain([
        511, 512, 513, 1000, 2046, 2047, 2048, 2049, 4095, 4096, 4097, 10_000,
    ])
}

/// C17 7.24.2.1: "The memcpy function copies n characters from the object pointed to by s2
/// into the object pointed to by s1."; nothing outside the `n` bytes is written.
#[test]
fn copies_every_length_at_every_alignment() {
    for n in lengths() {
        let source = pattern(n + 32, n as u8);
        for src_at in 0..16 {
            for dst_at in 0..16 {
                let mut dst = vec![0u8; n + 48];
                unsafe {
                    copy_nonoverlapping(
                        dst.as_mut_ptr().add(dst_at),
                        source.as_ptr().add(src_at),
                        n,
                    )
                };
                assert!(
                    dst[..dst_at].iter().all(|&b| b == 0),
                    "n {n}: wrote before dst"
                );
                assert_eq!(
                    &dst[dst_at..dst_at + n],
                    &source[src_at..src_at + n],
                    "n {n} src+{src_at} dst+{dst_at}"
                );
                assert!(
                    dst[dst_at + n..].iter().all(|&b| b == 0),
                    "n {n}: wrote past dst"
                );
            }
        }
    }
}

/// C17 7.24.2.2: "Copying takes place as if the n characters from the object pointed to by s2
/// are first copied into a temporary array of n characters that does not overlap the objects
/// pointed to by s1 and s2, and then the n characters from the temporary array are copied
/// into the object pointed to by s1."
#[test]
fn moves_with_every_overlap_in_both_directions() {
    for n in lengths().filter(|&n| n <= 2100 || n == 4097) {
        // Every distance for the small and block paths; for the long lengths, distances on
        // both sides of each alignment and of a block.
        let distances: Vec<usize> = if n <= 300 {
            (0..=n + 1).collect()
        } else {
            (0..=130)
                .chain([n / 2, n - 65, n - 64, n - 63, n - 1, n, n + 1])
                .collect()
        };
        for &distance in &distances {
            for (base, up) in [(0, true), (5, true), (0, false), (11, false)] {
                let len = n + distance + 32;
                let original = pattern(len, distance as u8);
                let (src, dst) = if up {
                    (base, base + distance)
                } else {
                    (base + distance, base)
                };
                let mut expected = original.clone();
                reference_move(&mut expected, dst, src, n);
                let mut actual = original.clone();
                unsafe {
                    let p = actual.as_mut_ptr();
                    copy(p.add(dst), p.add(src), n);
                }
                assert!(actual == expected, "n {n} src {src} dst {dst}");
            }
        }
    }
}

/// C17 7.24.4.1: "The memcmp function returns an integer greater than, equal to, or less than
/// zero, accordingly as the object pointed to by s1 is greater than, equal to, or less than
/// the object pointed to by s2", comparing as unsigned char (7.24.4).
#[test]
fn compares_with_the_first_difference_at_every_place() {
    for n in lengths().filter(|&n| n <= 300 || n == 4097) {
        let a = pattern(n + 16, 7);
        for at_a in [0, 3] {
            let left = &a[at_a..at_a + n];
            let equal: Vec<u8> = left.to_vec();
            assert_eq!(
                unsafe { compare(left.as_ptr(), equal.as_ptr(), n) },
                0,
                "n {n}"
            );
            for at in 0..n {
                for changed in [left[at].wrapping_add(1), left[at].wrapping_sub(1), 0, 0xff] {
                    if changed == left[at] {
                        continue;
                    }
                    let mut right = equal.clone();
                    right[at] = changed;
                    // A later difference must not decide the order.
                    if at + 1 < n {
                        right[n - 1] ^= 0x80;
                    }
                    let expected = reference_compare(left, &right).signum();
                    let actual = unsafe { compare(left.as_ptr(), right.as_ptr(), n) }.signum();
                    assert_eq!(actual, expected, "n {n} difference at {at}");
                    let back = unsafe { compare(right.as_ptr(), left.as_ptr(), n) }.signum();
                    assert_eq!(back, -expected, "n {n} difference at {at}, swapped");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// C17 7.24.2.2 on random lengths to 20,000 bytes, random places and overlaps.
    #[test]
    fn moves_like_the_reference(n in 0usize..20_000, src in 0usize..20_100, dst in 0usize..20_100, seed: u8) {
        let len = 40_200;
        prop_assume!(src + n <= len && dst + n <= len);
        let original = pattern(len, seed);
        let mut expected = original.clone();
        reference_move(&mut expected, dst, src, n);
        let mut actual = original;
        unsafe {
            let p = actual.as_mut_ptr();
            copy(p.add(dst), p.add(src), n);
        }
        prop_assert!(actual == expected);
    }

    /// C17 7.24.4.1 on random bytes, mostly equal prefixes of random length.
    #[test]
    fn compares_like_the_reference(
        prefix in proptest::collection::vec(any::<u8>(), 0..3000),
        a_rest in proptest::collection::vec(any::<u8>(), 0..40),
        b_rest in proptest::collection::vec(any::<u8>(), 0..40),
    ) {
        let n = a_rest.len().min(b_rest.len());
        let a: Vec<u8> = prefix.iter().chain(&a_rest[..n]).copied().collect();
        let b: Vec<u8> = prefix.iter().chain(&b_rest[..n]).copied().collect();
        let expected = reference_compare(&a, &b).signum();
        prop_assert_eq!(unsafe { compare(a.as_ptr(), b.as_ptr(), a.len()) }.signum(), expected);
    }
}
