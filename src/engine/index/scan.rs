//! Scanning a bucket: which lanes (tags or fingerprints) are within the distance of a query.
//!
//! This is the inner loop of every lookup (at 10^8 windows a novel's check compares about
//! 800 million lanes), so it has AVX-512 (with its vector popcount) and AVX2 versions chosen
//! at run time, and a portable one that is also the reference both are tested against.

/// Lanes compared at a time (one bit of a mask each).
const LANES: usize = 32;

/// A lane: a tag (`u32`) or a whole fingerprint (`u64`).
pub trait Lane: Copy + PartialEq {
    const ZERO: Self;
    fn xor(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn clear_lowest(self) -> Self;
    fn not(self) -> Self;
    /// [`close_lanes`] with the CPU's vector instructions, if it has them (false if not).
    fn close_lanes_fast(lanes: &[Self], want: Self, care: Self, exact: Self, distance: u32, out: &mut Vec<u32>)
    -> bool;
}

/// Appends to `out` the index of every lane of `lanes` that differs from `want` in at most
/// `distance` of the `care` bits and in none of the `exact` bits.
#[inline]
pub fn close_lanes<T: Lane>(lanes: &[T], want: T, care: T, exact: T, distance: u32, out: &mut Vec<u32>) {
    if !T::close_lanes_fast(lanes, want, care, exact, distance, out) {
        close_lanes_with(lanes, want, care, exact, distance, out, |chunk, w, c, e, d| close_mask(chunk, w, c, e, d));
    }
}

/// [`close_lanes`] with `mask` computing the mask of each full chunk of [`LANES`].
#[inline(always)]
fn close_lanes_with<T: Lane>(
    lanes: &[T],
    want: T,
    care: T,
    exact: T,
    distance: u32,
    out: &mut Vec<u32>,
    mask: impl Fn(&[T; LANES], T, T, T, u32) -> u32,
) {
    let mut chunks = lanes.chunks_exact(LANES);
    let mut base = 0u32;
    for chunk in &mut chunks {
        let chunk: &[T; LANES] = chunk.try_into().expect("chunks_exact gives LANES lanes");
        push_set_bits(mask(chunk, want, care, exact, distance), base, out);
        base += LANES as u32;
    }
    // The last few lanes go through the same vector code, padded with lanes that differ
    // from `want` in every bit (so never close) and masked off after.
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut padded = [want.not(); LANES];
        padded[..rest.len()].copy_from_slice(rest);
        let real = u32::MAX >> (LANES - rest.len());
        push_set_bits(mask(&padded, want, care, exact, distance) & real, base, out);
    }
}

#[inline(always)]
fn push_set_bits(mut mask: u32, base: u32, out: &mut Vec<u32>) {
    while mask != 0 {
        out.push(base + mask.trailing_zeros());
        mask &= mask - 1;
    }
}

/// Bit j is set when lane j (of at most [`LANES`]) is close, as [`close_lanes`] defines it.
/// Portable: the popcount test is "clearing the lowest set bit `distance` times leaves
/// zero", which compiles to vector code on any x86-64 (SSE2) without a vector popcount.
#[inline(always)]
fn close_mask<T: Lane>(lanes: &[T], want: T, care: T, exact: T, distance: u32) -> u32 {
    let mut rest = [T::ZERO; LANES];
    let mut exact_ok = [false; LANES];
    for ((r, ok), &lane) in rest.iter_mut().zip(&mut exact_ok).zip(lanes) {
        let x = lane.xor(want);
        *r = x.and(care);
        *ok = x.and(exact) == T::ZERO;
    }
    for _ in 0..distance {
        for r in &mut rest {
            *r = r.clear_lowest();
        }
    }
    rest.iter()
        .zip(&exact_ok)
        .take(lanes.len())
        .enumerate()
        .fold(0, |m, (j, (&r, &ok))| m | u32::from(ok && r == T::ZERO) << j)
}

macro_rules! lane {
    ($t:ty, $avx2:path, $avx512:path) => {
        impl Lane for $t {
            const ZERO: $t = 0;
            fn xor(self, o: $t) -> $t {
                self ^ o
            }
            fn and(self, o: $t) -> $t {
                self & o
            }
            fn clear_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            fn not(self) -> $t {
                !self
            }
            #[inline(always)]
            fn close_lanes_fast(
                lanes: &[$t],
                want: $t,
                care: $t,
                exact: $t,
                distance: u32,
                out: &mut Vec<u32>,
            ) -> bool {
                #[cfg(target_arch = "x86_64")]
                if avx512::available() {
                    // SAFETY: the CPU has AVX-512 F, BW and VPOPCNTDQ (checked just above).
                    unsafe { $avx512(lanes, want, care, exact, distance, out) };
                    return true;
                }
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2 (checked just above).
                    unsafe { $avx2(lanes, want, care, exact, distance, out) };
                    return true;
                }
                let _ = (lanes, want, care, exact, distance, out);
                false
            }
        }
    };
}
lane!(u32, avx2::close_lanes_u32, avx512::close_lanes_u32);
lane!(u64, avx2::close_lanes_u64, avx512::close_lanes_u64);

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{LANES, close_lanes_with};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub fn close_lanes_u32(lanes: &[u32], want: u32, care: u32, exact: u32, distance: u32, out: &mut Vec<u32>) {
        close_lanes_with(lanes, want, care, exact, distance, out, |chunk, w, c, e, d| {
            close_mask_u32(chunk, w, c, e, d)
        });
    }

    #[target_feature(enable = "avx2")]
    pub fn close_lanes_u64(lanes: &[u64], want: u64, care: u64, exact: u64, distance: u32, out: &mut Vec<u32>) {
        close_lanes_with(lanes, want, care, exact, distance, out, |chunk, w, c, e, d| {
            close_mask_u64(chunk, w, c, e, d)
        });
    }

    /// [`super::close_mask`] for 32 `u32` lanes, 8 to a register: a lane is close when
    /// (its differing care bits with the lowest `distance` set bits cleared) and its
    /// differing exact bits are both zero.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn close_mask_u32(lanes: &[u32; LANES], want: u32, care: u32, exact: u32, distance: u32) -> u32 {
        let want = _mm256_set1_epi32(want as i32);
        let care = _mm256_set1_epi32(care as i32);
        let exact = _mm256_set1_epi32(exact as i32);
        let one = _mm256_set1_epi32(1);
        let mut mask = 0u32;
        for (i, eight) in lanes.chunks_exact(8).enumerate() {
            // SAFETY: `eight` holds 8 u32s, 32 bytes; loadu needs no alignment.
            let v = unsafe { _mm256_loadu_si256(eight.as_ptr().cast()) };
            let x = _mm256_xor_si256(v, want);
            let mut rest = _mm256_and_si256(x, care);
            for _ in 0..distance {
                rest = _mm256_and_si256(rest, _mm256_sub_epi32(rest, one));
            }
            let bad = _mm256_or_si256(rest, _mm256_and_si256(x, exact));
            let ok = _mm256_cmpeq_epi32(bad, _mm256_setzero_si256());
            mask |= (_mm256_movemask_ps(_mm256_castsi256_ps(ok)) as u32) << (i * 8);
        }
        mask
    }

    /// [`super::close_mask`] for 32 `u64` lanes, 4 to a register.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn close_mask_u64(lanes: &[u64; LANES], want: u64, care: u64, exact: u64, distance: u32) -> u32 {
        let want = _mm256_set1_epi64x(want as i64);
        let care = _mm256_set1_epi64x(care as i64);
        let exact = _mm256_set1_epi64x(exact as i64);
        let one = _mm256_set1_epi64x(1);
        let mut mask = 0u32;
        for (i, four) in lanes.chunks_exact(4).enumerate() {
            // SAFETY: `four` holds 4 u64s, 32 bytes; loadu needs no alignment.
            let v = unsafe { _mm256_loadu_si256(four.as_ptr().cast()) };
            let x = _mm256_xor_si256(v, want);
            let mut rest = _mm256_and_si256(x, care);
            for _ in 0..distance {
                rest = _mm256_and_si256(rest, _mm256_sub_epi64(rest, one));
            }
            let bad = _mm256_or_si256(rest, _mm256_and_si256(x, exact));
            let ok = _mm256_cmpeq_epi64(bad, _mm256_setzero_si256());
            mask |= (_mm256_movemask_pd(_mm256_castsi256_pd(ok)) as u32) << (i * 4);
        }
        mask
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{LANES, close_lanes_with};
    use std::arch::x86_64::*;

    /// Whether this CPU has the AVX-512 parts the scan uses (a vector popcount and masks).
    #[inline]
    pub fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }

    #[target_feature(enable = "avx512f,avx512vpopcntdq,avx512bw")]
    pub fn close_lanes_u32(lanes: &[u32], want: u32, care: u32, exact: u32, distance: u32, out: &mut Vec<u32>) {
        close_lanes_with(lanes, want, care, exact, distance, out, |chunk, w, c, e, d| {
            close_mask_u32(chunk, w, c, e, d)
        });
    }

    #[target_feature(enable = "avx512f,avx512vpopcntdq,avx512bw")]
    pub fn close_lanes_u64(lanes: &[u64], want: u64, care: u64, exact: u64, distance: u32, out: &mut Vec<u32>) {
        close_lanes_with(lanes, want, care, exact, distance, out, |chunk, w, c, e, d| {
            close_mask_u64(chunk, w, c, e, d)
        });
    }

    /// [`super::close_mask`] for 32 `u32` lanes, 16 to a register, counting bits directly.
    #[target_feature(enable = "avx512f,avx512vpopcntdq,avx512bw")]
    #[inline]
    fn close_mask_u32(lanes: &[u32; LANES], want: u32, care: u32, exact: u32, distance: u32) -> u32 {
        let (w, c, e) =
            (_mm512_set1_epi32(want as i32), _mm512_set1_epi32(care as i32), _mm512_set1_epi32(exact as i32));
        let limit = _mm512_set1_epi32(distance as i32);
        let mut mask = 0u32;
        for (i, sixteen) in lanes.chunks_exact(16).enumerate() {
            // SAFETY: `sixteen` holds 16 u32s, 64 bytes; loadu needs no alignment.
            let v = unsafe { _mm512_loadu_si512(sixteen.as_ptr().cast()) };
            let x = _mm512_xor_si512(v, w);
            let near = _mm512_cmple_epu32_mask(_mm512_popcnt_epi32(_mm512_and_si512(x, c)), limit);
            let clean = _mm512_testn_epi32_mask(x, e);
            mask |= u32::from(near & clean) << (i * 16);
        }
        mask
    }

    /// [`super::close_mask`] for 32 `u64` lanes, 8 to a register.
    #[target_feature(enable = "avx512f,avx512vpopcntdq,avx512bw")]
    #[inline]
    fn close_mask_u64(lanes: &[u64; LANES], want: u64, care: u64, exact: u64, distance: u32) -> u32 {
        let (w, c, e) =
            (_mm512_set1_epi64(want as i64), _mm512_set1_epi64(care as i64), _mm512_set1_epi64(exact as i64));
        let limit = _mm512_set1_epi64(i64::from(distance));
        let mut mask = 0u32;
        for (i, eight) in lanes.chunks_exact(8).enumerate() {
            // SAFETY: `eight` holds 8 u64s, 64 bytes; loadu needs no alignment.
            let v = unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) };
            let x = _mm512_xor_si512(v, w);
            let near = _mm512_cmple_epu64_mask(_mm512_popcnt_epi64(_mm512_and_si512(x, c)), limit);
            let clean = _mm512_testn_epi64_mask(x, e);
            mask |= u32::from(near & clean) << (i * 8);
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lanes near `want` (0..=5 bits flipped, some in the exact bits) and random ones.
    fn lanes_near<T: Lane>(want: T, flip: impl Fn(T, u32) -> T, bits: u32, rng: &mut fastrand::Rng) -> Vec<T> {
        (0..LANES * 7 + 5)
            .map(|i| {
                let mut x = want;
                for _ in 0..i % 6 {
                    x = flip(x, rng.u32(0..bits));
                }
                if i % 11 == 0 { flip(x, rng.u32(0..bits)) } else { x }
            })
            .collect()
    }

    fn reference<T: Lane>(lanes: &[T], want: T, care: T, exact: T, distance: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for (c, chunk) in lanes.chunks(LANES).enumerate() {
            push_set_bits(close_mask(chunk, want, care, exact, distance), (c * LANES) as u32, &mut out);
        }
        out
    }

    /// Every scan this CPU can run: (name, u32 scan, u64 scan).
    type Scan32 = fn(&[u32], u32, u32, u32, u32, &mut Vec<u32>);
    type Scan64 = fn(&[u64], u64, u64, u64, u32, &mut Vec<u32>);
    fn scans() -> Vec<(&'static str, Scan32, Scan64)> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))] // only x86-64 has more
        let mut all: Vec<(&'static str, Scan32, Scan64)> = vec![("dispatched", close_lanes, close_lanes)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY (both): called only on this CPU, which has AVX2.
                all.push((
                    "avx2",
                    |l, w, c, e, d, o| unsafe { avx2::close_lanes_u32(l, w, c, e, d, o) },
                    |l, w, c, e, d, o| unsafe { avx2::close_lanes_u64(l, w, c, e, d, o) },
                ));
            }
            if avx512::available() {
                // SAFETY (both): called only on this CPU, which has the AVX-512 parts.
                all.push((
                    "avx512",
                    |l, w, c, e, d, o| unsafe { avx512::close_lanes_u32(l, w, c, e, d, o) },
                    |l, w, c, e, d, o| unsafe { avx512::close_lanes_u64(l, w, c, e, d, o) },
                ));
            }
        }
        all
    }

    #[test]
    fn every_vector_scan_agrees_with_the_portable_one_and_with_popcount() {
        let mut rng = fastrand::Rng::with_seed(3);
        for (name, scan32, scan64) in scans() {
            for distance in 0..=4 {
                let want = rng.u32(..);
                let (care, exact) = (u32::MAX >> 11, 0b1111 << 17);
                let lanes = lanes_near(want, |x, b| x ^ 1 << b, 21, &mut rng);
                let mut fast = Vec::new();
                scan32(&lanes, want, care, exact, distance, &mut fast);
                let by_popcount: Vec<u32> = (0..lanes.len() as u32)
                    .filter(|&j| {
                        let x = lanes[j as usize] ^ want;
                        (x & care).count_ones() <= distance && x & exact == 0
                    })
                    .collect();
                assert_eq!(fast, by_popcount, "{name}, u32, distance {distance}");
                assert_eq!(fast, reference(&lanes, want, care, exact, distance));
                assert!(!fast.is_empty() && fast.len() < lanes.len());

                let want = rng.u64(..);
                let lanes = lanes_near(want, |x, b| x ^ 1 << b, 64, &mut rng);
                let exact = 0xffff << 48;
                let mut fast = Vec::new();
                scan64(&lanes, want, u64::MAX, exact, distance, &mut fast);
                let by_popcount: Vec<u32> = (0..lanes.len() as u32)
                    .filter(|&j| {
                        let x = lanes[j as usize] ^ want;
                        x.count_ones() <= distance && x & exact == 0
                    })
                    .collect();
                assert_eq!(fast, by_popcount, "{name}, u64, distance {distance}");
                assert_eq!(fast, reference(&lanes, want, u64::MAX, exact, distance));
            }
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(scans().len() >= 2, "the AVX2 scan is tested on a CPU that has it");
        }
    }
}
