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
