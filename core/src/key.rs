//! Keys: 128-bit fingerprints of the bytes a game's adapter writes for a state (docs/solving.md,
//! "The compiled core"), and the maps and sets of them. The search, its transposition table and
//! the games' adapters all speak of keys; this module depends on none of them.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A 128-bit fingerprint of a key's bytes.
pub type Key = u128;

/// Hashes a fingerprint by its low bits: it is already a good hash.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }
    fn write_u128(&mut self, value: u128) {
        self.0 = value as u64;
    }
}

pub type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;
pub type KeySet = HashSet<Key, BuildHasherDefault<KeyHasher>>;

/// The fingerprint of `bytes`: XXH3-128, the same on every machine, so that a node budget gives
/// the same answer everywhere (restarts pick their order from fingerprints).
pub fn fingerprint(bytes: &[u8]) -> Key {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// XXH3's default secret, its first 128 bytes as little-endian words (the part that inputs of
/// 17 to 128 bytes use).
const SECRET: [u64; 16] = [
    0xbe4ba423396cfeb8,
    0x1cad21f72c81017c,
    0xdb979083e96dd4de,
    0x1f67b3b7a4a44072,
    0x78e5c0cc4ee679cb,
    0x2172ffcc7dd05a82,
    0x8e2443f7744608b8,
    0x4c263a81e69035e0,
    0xcb00c391bb52283c,
    0xa32e531b8b65d088,
    0x4ef90da297486471,
    0xd8acdea946ef1938,
    0x3f349ce33f76faa8,
    0x1d4f0bc7c7bbdcf9,
    0x3159b4cd4be0518a,
    0x647378d9c97e9fc8,
];
const PRIME64_1: u64 = 0x9E3779B185EBCA87;
const PRIME64_2: u64 = 0xC2B2AE3D27D4EB4F;
const PRIME64_4: u64 = 0x85EBCA77C2B2AE63;

/// The fingerprint of the `LEN` bytes (17 to 128) that `words` hold in little-endian order:
/// equal to [`fingerprint`] of those bytes (XXH3-128, computed the same way), but read from
/// words rather than from memory. A key made of a few wide values (sums of fingerprints,
/// counts) written into a byte buffer was read back by the hash across the boundaries of
/// those writes, which stalls each read until the writes are done: a fifth of a Spider
/// search's time by `perf`. The offsets are constants, so the words stay in registers.
#[inline(always)]
pub fn fingerprint_words<const LEN: usize, const N: usize>(words: &[u64; N]) -> Key {
    const { assert!(LEN >= 17 && LEN <= 128 && N * 8 >= LEN) };
    let read = |offset: usize| -> u64 {
        let (word, shift) = (offset / 8, (offset % 8) * 8);
        if shift == 0 {
            words[word]
        } else {
            (words[word] >> shift) | (words[word + 1] << (64 - shift))
        }
    };
    let mix16 = |offset: usize, secret: usize| -> u64 {
        let product = u128::from(read(offset) ^ SECRET[secret])
            * u128::from(read(offset + 8) ^ SECRET[secret + 1]);
        (product as u64) ^ ((product >> 64) as u64)
    };
    let mut low = (LEN as u64).wrapping_mul(PRIME64_1);
    let mut high = 0u64;
    let mut mix32 = |first: usize, second: usize, secret: usize| {
        low = low.wrapping_add(mix16(first, secret));
        low ^= read(second).wrapping_add(read(second + 8));
        high = high.wrapping_add(mix16(second, secret + 2));
        high ^= read(first).wrapping_add(read(first + 8));
    };
    if LEN > 32 {
        if LEN > 64 {
            if LEN > 96 {
                mix32(48, LEN - 64, 12);
            }
            mix32(32, LEN - 48, 8);
        }
        mix32(16, LEN - 32, 4);
    }
    mix32(0, LEN - 16, 0);
    let avalanche = |mut value: u64| {
        value ^= value >> 37;
        value = value.wrapping_mul(0x165667919E3779F9);
        value ^ (value >> 32)
    };
    let result_low = avalanche(low.wrapping_add(high));
    let result_high = 0u64.wrapping_sub(avalanche(
        low.wrapping_mul(PRIME64_1)
            .wrapping_add(high.wrapping_mul(PRIME64_4))
            .wrapping_add((LEN as u64).wrapping_mul(PRIME64_2)),
    ));
    Key::from(result_low) | (Key::from(result_high) << 64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of<const N: usize>(bytes: &[u8]) -> [u64; N] {
        let mut padded = vec![0u8; N * 8];
        padded[..bytes.len()].copy_from_slice(bytes);
        std::array::from_fn(|index| {
            u64::from_le_bytes(padded[index * 8..index * 8 + 8].try_into().unwrap())
        })
    }

    fn check<const LEN: usize, const N: usize>(seed: u64) {
        let mut state = seed;
        let bytes: Vec<u8> = (0..LEN)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 56) as u8
            })
            .collect();
        assert_eq!(fingerprint_words::<LEN, N>(&words_of::<N>(&bytes)), fingerprint(&bytes));
    }

    #[test]
    fn words_hash_as_their_bytes_do() {
        for seed in 0..200 {
            check::<17, 3>(seed);
            check::<32, 4>(seed);
            check::<33, 5>(seed);
            check::<37, 5>(seed);
            check::<41, 6>(seed);
            check::<48, 6>(seed);
            check::<64, 8>(seed);
            check::<65, 9>(seed);
            check::<97, 13>(seed);
            check::<128, 16>(seed);
        }
    }
}
