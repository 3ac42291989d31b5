//! `memcpy`, `memmove`, `memcmp` and `bcmp` for the static x86_64 Linux binary.
//!
//! The binary the packages ship is linked against musl, whose x86_64 `memcpy` copies with
//! `rep movsq` and byte loops, and whose `memcmp` compares one byte at a time. Every copy a
//! Rust program makes (a `Vec` that grows, a `String` pushed onto, a slice cloned) and every
//! slice comparison goes through them: they were 21 % of `mirrorless check`'s CPU and 9 % of
//! `mirrorless lint`'s, against 3 % for glibc's (docs/benchmarks/check.md, "The shipped
//! binary").
//!
//! On `x86_64-unknown-linux-musl` this crate defines those four symbols, so the linker never
//! takes musl's (musl's `memmove` is the only other user of its `memcpy`'s object, which is why
//! both are defined here). On every other target it only holds the functions, which the tests
//! hold to byte-at-a-time references on every length, alignment and overlap.
//!
//! The copies use SSE2 (every x86_64 CPU has it): lengths up to 128 bytes with 16-byte loads
//! that overlap at the ends, longer ones in 64-byte blocks to an aligned destination, and
//! `rep movsb` for a non-overlapping copy from 2 KiB up, where the CPU's fast string microcode
//! wins. The crate is `no_builtins`, so the compiler never turns a loop here back into a call to
//! the function being defined.

#![cfg_attr(not(test), no_std)]
#![no_builtins]
#![warn(missing_docs)]
#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_storeu_si128,
};
use core::ptr::{read_unaligned, write_unaligned};

#[cfg(test)]
mod tests;

/// From this length up, a copy whose regions do not overlap is left to `rep movsb` (the
/// threshold glibc uses for 16-byte vectors).
const REP_MOVSB_FROM: usize = 2048;

/// Copies `n` bytes from `src` to `dst`, which must not overlap (`memcpy`).
///
/// # Safety
/// `src` must be valid for reads and `dst` for writes of `n` bytes, and the two ranges must
/// not overlap.
#[inline]
pub unsafe fn copy_nonoverlapping(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract, which is each helper's.
    unsafe {
        if n <= 128 {
            up_to_128(dst, src, n);
        } else if n >= REP_MOVSB_FROM {
            rep_movsb(dst, src, n);
        } else {
            forward(dst, src, n);
        }
    }
}

/// Copies `n` bytes from `src` to `dst`, which may overlap (`memmove`).
///
/// # Safety
/// `src` must be valid for reads and `dst` for writes of `n` bytes.
#[inline]
pub unsafe fn copy(dst: *mut u8, src: *const u8, n: usize) {
    let ahead = (dst as usize).wrapping_sub(src as usize);
    let behind = (src as usize).wrapping_sub(dst as usize);
    // SAFETY: the caller's contract; each branch keeps the helper's own overlap condition.
    unsafe {
        if n <= 128 {
            up_to_128(dst, src, n);
        } else if ahead >= n && behind >= n && n >= REP_MOVSB_FROM {
            rep_movsb(dst, src, n);
        } else if ahead >= n {
            // `dst` is below `src` or past its end: copying upwards reads every byte before
            // anything is written over it.
            forward(dst, src, n);
        } else {
            backward(dst, src, n);
        }
    }
}

/// Compares `n` bytes at `a` and `b` as unsigned bytes (`memcmp`): negative, zero or positive
/// as `a`'s bytes order before, equal to or after `b`'s.
///
/// # Safety
/// `a` and `b` must be valid for reads of `n` bytes.
#[inline]
pub unsafe fn compare(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: every read stays inside the `n` bytes the caller vouches for.
    unsafe {
        if n >= 16 {
            let mut at = 0;
            while at + 16 <= n {
                if let Some(order) = compare_16(a.add(at), b.add(at)) {
                    return order;
                }
                at += 16;
            }
            // The last block overlaps bytes already found equal, so its first difference is
            // the first of the whole range.
            if at < n
                && let Some(order) = compare_16(a.add(n - 16), b.add(n - 16))
            {
                return order;
            }
            0
        } else if n >= 8 {
            let first = order_of(read_be_u64(a), read_be_u64(b));
            if first != 0 {
                return first;
            }
            order_of(read_be_u64(a.add(n - 8)), read_be_u64(b.add(n - 8)))
        } else if n >= 4 {
            let first = order_of(read_be_u32(a), read_be_u32(b));
            if first != 0 {
                return first;
            }
            order_of(read_be_u32(a.add(n - 4)), read_be_u32(b.add(n - 4)))
        } else {
            let mut at = 0;
            while at < n {
                let (x, y) = (*a.add(at), *b.add(at));
                if x != y {
                    return i32::from(x) - i32::from(y);
                }
                at += 1;
            }
            0
        }
    }
}

/// Any length up to 128: every byte is loaded before any is stored, so the regions may
/// overlap either way.
#[inline(always)]
unsafe fn up_to_128(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: every access is inside the first `n` bytes of `src` or `dst`; the pairs of
    // loads overlap in the middle instead of running past the end.
    unsafe {
        if n <= 16 {
            if n >= 8 {
                let (x, y) = (
                    read_unaligned(src.cast::<u64>()),
                    read_unaligned(src.add(n - 8).cast::<u64>()),
                );
                write_unaligned(dst.cast::<u64>(), x);
                write_unaligned(dst.add(n - 8).cast::<u64>(), y);
            } else if n >= 4 {
                let (x, y) = (
                    read_unaligned(src.cast::<u32>()),
                    read_unaligned(src.add(n - 4).cast::<u32>()),
                );
                write_unaligned(dst.cast::<u32>(), x);
                write_unaligned(dst.add(n - 4).cast::<u32>(), y);
            } else if n >= 2 {
                let (x, y) = (
                    read_unaligned(src.cast::<u16>()),
                    read_unaligned(src.add(n - 2).cast::<u16>()),
                );
                write_unaligned(dst.cast::<u16>(), x);
                write_unaligned(dst.add(n - 2).cast::<u16>(), y);
            } else if n == 1 {
                *dst = *src;
            }
        } else if n <= 32 {
            let (x, y) = (load(src), load(src.add(n - 16)));
            store(dst, x);
            store(dst.add(n - 16), y);
        } else if n <= 64 {
            let head = [load(src), load(src.add(16))];
            let tail = [load(src.add(n - 32)), load(src.add(n - 16))];
            store_2(dst, head);
            store_2(dst.add(n - 32), tail);
        } else {
            let head = load_4(src);
            let tail = load_4(src.add(n - 64));
            store_4(dst, head);
            store_4(dst.add(n - 64), tail);
        }
    }
}

/// Over 128 bytes, upwards in 64-byte blocks to a 16-byte aligned destination. Correct when
/// the regions do not overlap or `dst` is below `src`: a block is stored only below the
/// bytes still to be loaded. The first 16 and last 64 bytes are loaded first and stored last.
#[inline(always)]
unsafe fn forward(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: n > 128; the blocks run from `dst + skip` (skip in 1..=16) while they start
    // below `dst + n - 64`, so they end inside the range; head and tail cover what they skip.
    unsafe {
        let head = load(src);
        let tail = load_4(src.add(n - 64));
        let skip = 16 - (dst as usize & 15);
        let (mut d, mut s) = (dst.add(skip), src.add(skip));
        let end = dst.add(n - 64);
        while d < end {
            let block = load_4(s);
            store_4(d, block);
            d = d.add(64);
            s = s.add(64);
        }
        store_4(dst.add(n - 64), tail);
        store(dst, head);
    }
}

/// Over 128 bytes, downwards in 64-byte blocks from a 16-byte aligned destination end. Correct
/// when `dst` is above `src` (overlapping or not): a block is stored only above the bytes still
/// to be loaded. The first 64 and last 16 bytes are loaded first and stored last.
#[inline(always)]
unsafe fn backward(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: n > 128; the blocks end at `dst + n - (end & 15)` and run down while they end
    // above `dst + 64`, so they start inside the range; head and tail cover what they skip.
    unsafe {
        let head = load_4(src);
        let tail = load(src.add(n - 16));
        let cut = (dst as usize + n) & 15;
        let (mut d, mut s) = (dst.add(n - cut), src.add(n - cut));
        let start = dst.add(64);
        while d > start {
            d = d.sub(64);
            s = s.sub(64);
            let block = load_4(s);
            store_4(d, block);
        }
        store(dst.add(n - 16), tail);
        store_4(dst, head);
    }
}

/// `rep movsb`: the CPU's own copy, fastest for long copies on every x86_64 since Ivy Bridge.
/// Only for regions that do not overlap.
#[inline(always)]
unsafe fn rep_movsb(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: the caller's contract; the direction flag is clear at every call (SysV ABI).
    unsafe {
        core::arch::asm!(
            "rep movsb",
            inout("rcx") n => _,
            inout("rdi") dst => _,
            inout("rsi") src => _,
            options(nostack, preserves_flags)
        );
    }
}

/// The order of two 16-byte blocks by their first differing byte, `None` if equal.
#[inline(always)]
unsafe fn compare_16(a: *const u8, b: *const u8) -> Option<i32> {
    // SAFETY: the caller's 16 readable bytes at each.
    unsafe {
        let equal = _mm_movemask_epi8(_mm_cmpeq_epi8(load(a), load(b))) as u32;
        if equal == 0xffff {
            return None;
        }
        let at = (!equal).trailing_zeros() as usize;
        Some(i32::from(*a.add(at)) - i32::from(*b.add(at)))
    }
}

fn order_of<T: Ord>(x: T, y: T) -> i32 {
    match x.cmp(&y) {
        core::cmp::Ordering::Less => -1,
        core::cmp::Ordering::Equal => 0,
        core::cmp::Ordering::Greater => 1,
    }
}

#[inline(always)]
unsafe fn read_be_u64(p: *const u8) -> u64 {
    // SAFETY: the caller's 8 readable bytes.
    u64::from_be(unsafe { read_unaligned(p.cast::<u64>()) })
}

#[inline(always)]
unsafe fn read_be_u32(p: *const u8) -> u32 {
    // SAFETY: the caller's 4 readable bytes.
    u32::from_be(unsafe { read_unaligned(p.cast::<u32>()) })
}

#[inline(always)]
unsafe fn load(p: *const u8) -> __m128i {
    // SAFETY: the caller's 16 readable bytes; `loadu` needs no alignment.
    unsafe { _mm_loadu_si128(p.cast::<__m128i>()) }
}

#[inline(always)]
unsafe fn store(p: *mut u8, v: __m128i) {
    // SAFETY: the caller's 16 writable bytes; `storeu` needs no alignment.
    unsafe { _mm_storeu_si128(p.cast::<__m128i>(), v) }
}

#[inline(always)]
unsafe fn load_4(p: *const u8) -> [__m128i; 4] {
    // SAFETY: the caller's 64 readable bytes.
    unsafe { [load(p), load(p.add(16)), load(p.add(32)), load(p.add(48))] }
}

#[inline(always)]
unsafe fn store_2(p: *mut u8, v: [__m128i; 2]) {
    // SAFETY: the caller's 32 writable bytes.
    unsafe {
        store(p, v[0]);
        store(p.add(16), v[1]);
    }
}

#[inline(always)]
unsafe fn store_4(p: *mut u8, v: [__m128i; 4]) {
    // SAFETY: the caller's 64 writable bytes.
    unsafe {
        store(p, v[0]);
        store(p.add(16), v[1]);
        store(p.add(32), v[2]);
        store(p.add(48), v[3]);
    }
}

/// The C symbols, on the one target whose libc's are slow. The shipped binary links them
/// through `src/main.rs`.
#[cfg(target_env = "musl")]
mod symbols {
    /// C's `memcpy`.
    ///
    /// # Safety
    /// As [`copy_nonoverlapping`](super::copy_nonoverlapping).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memcpy(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        // SAFETY: C's contract for `memcpy` is this function's.
        unsafe { super::copy_nonoverlapping(dst, src, n) };
        dst
    }

    /// C's `memmove`.
    ///
    /// # Safety
    /// As [`copy`](super::copy).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memmove(dst: *mut u8, src: *const u8, n: usize) -> *mut u8 {
        // SAFETY: C's contract for `memmove` is this function's.
        unsafe { super::copy(dst, src, n) };
        dst
    }

    /// C's `memcmp`.
    ///
    /// # Safety
    /// As [`compare`](super::compare).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: C's contract for `memcmp` is this function's.
        unsafe { super::compare(a, b, n) }
    }

    /// C's `bcmp`: zero if and only if the bytes are equal.
    ///
    /// # Safety
    /// As [`compare`](super::compare).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
        // SAFETY: C's contract for `bcmp` is this function's.
        unsafe { super::compare(a, b, n) }
    }
}
