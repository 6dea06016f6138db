//! The depth-first search's transposition table: fingerprint -> "worse" counter, 16 bytes a
//! slot, open addressing with linear probing and backward-shift deletion.
//!
//! Why not a general hash map: the table is the search's memory and its cache misses. A slot
//! here holds 95 bits of the 128-bit fingerprint and the 32-bit counter in 16 bytes (a
//! `HashMap<u128, u32>` needs 32 bytes and a control byte), and the search can ask the processor
//! to fetch the slots of all of a node's children at once ([`Table::prefetch`]) before it tries
//! them one by one. Dropping 33 bits of the fingerprint leaves two different states in one search
//! of 10^8 states the same slot key with probability below 10^-12 (docs/solving.md, "The compiled
//! core").

use crate::key::Key;

const EMPTY: u64 = 0;
const WORSE_BITS: u64 = 0xFFFF_FFFF;

/// `capacity` empty slots. A large table asks the kernel for huge pages: the search reads its
/// slots at random, and with 4 KiB pages nearly every read of a table of hundreds of MiB also
/// misses the processor's page-translation cache (a page walk, twice as long in a virtual
/// machine) before the memory is fetched; with 2 MiB pages the translations of the whole table
/// fit that cache. Only a hint (the kernel may refuse it): the contents are the same.
fn empty_slots(capacity: usize) -> Vec<[u64; 2]> {
    // Zeroed memory this large comes straight from mmap, untouched: the advice applies before
    // the first page is faulted in.
    let slots = vec![[EMPTY, 0]; capacity];
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = capacity * std::mem::size_of::<[u64; 2]>();
        if bytes >= 4 * HUGE {
            let start = slots.as_ptr() as usize;
            let aligned = start.next_multiple_of(HUGE);
            let end = (start + bytes) & !(HUGE - 1);
            if end > aligned {
                // SAFETY: madvise only gives advice on pages of this live allocation.
                unsafe {
                    libc::madvise(aligned as *mut libc::c_void, end - aligned, libc::MADV_HUGEPAGE);
                }
            }
        }
    }
    slots
}

/// A set of fingerprints, each with a counter.
pub struct Table {
    slots: Vec<[u64; 2]>,
    mask: usize,
    len: usize,
}

impl Default for Table {
    fn default() -> Self {
        Self::new()
    }
}

/// The slot key of a fingerprint: the high word (never zero: zero marks an empty slot) and the
/// upper half of the low word.
#[inline]
fn split(key: Key) -> (u64, u64) {
    ((key >> 64) as u64 | 1, key as u64 & !WORSE_BITS)
}

impl Table {
    pub fn new() -> Self {
        let capacity = 1 << 12;
        Table { slots: empty_slots(capacity), mask: capacity - 1, len: 0 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn home(&self, high: u64) -> usize {
        // The high word is uniform but for its lowest bit (always set): the bits above pick it.
        ((high >> 1) as usize) & self.mask
    }

    /// Ask the processor to bring `key`'s home slot into the cache.
    #[inline]
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let (high, _) = split(key);
            let slot = &self.slots[self.home(high)];
            // SAFETY: a prefetch only hints the cache; the pointer is to a live slot.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    slot.as_ptr() as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn find(&self, high: u64, low: u64) -> Result<usize, usize> {
        let mut index = self.home(high);
        loop {
            let slot = self.slots[index];
            if slot[0] == EMPTY {
                return Err(index);
            }
            if slot[0] == high && slot[1] & !WORSE_BITS == low {
                return Ok(index);
            }
            index = (index + 1) & self.mask;
        }
    }

    /// The counter stored with `key`.
    #[inline]
    pub fn get(&self, key: Key) -> Option<u32> {
        let (high, low) = split(key);
        self.find(high, low).ok().map(|index| (self.slots[index][1] & WORSE_BITS) as u32)
    }

    /// Store `worse` with `key` (replacing a stored counter).
    pub fn insert(&mut self, key: Key, worse: u32) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let (high, low) = split(key);
        match self.find(high, low) {
            Ok(index) => self.slots[index][1] = low | u64::from(worse),
            Err(index) => {
                self.slots[index] = [high, low | u64::from(worse)];
                self.len += 1;
            }
        }
    }

    /// Take `key` out (backward-shift deletion keeps every other key findable).
    pub fn remove(&mut self, key: Key) {
        let (high, low) = split(key);
        let Ok(mut hole) = self.find(high, low) else {
            return;
        };
        self.len -= 1;
        let mut index = hole;
        loop {
            index = (index + 1) & self.mask;
            let slot = self.slots[index];
            if slot[0] == EMPTY {
                break;
            }
            // A key may move back into the hole if its home does not lie cyclically after the
            // hole (it would no longer be found).
            let home = self.home(slot[0]);
            let distance_to_slot = index.wrapping_sub(home) & self.mask;
            let distance_to_hole = hole.wrapping_sub(home) & self.mask;
            if distance_to_hole <= distance_to_slot {
                self.slots[hole] = slot;
                hole = index;
            }
        }
        self.slots[hole] = [EMPTY, 0];
    }

    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, empty_slots((self.mask + 1) * 2));
        self.mask = self.slots.len() - 1;
        for slot in old {
            if slot[0] != EMPTY {
                let Err(index) = self.find(slot[0], slot[1] & !WORSE_BITS) else {
                    unreachable!("keys are unique")
                };
                self.slots[index] = slot;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::fingerprint;
    use std::collections::HashMap;

    #[test]
    fn behaves_like_a_map_under_inserts_and_removals() {
        let mut table = Table::new();
        let mut model: HashMap<Key, u32> = HashMap::new();
        let mut state = 1u64;
        for step in 0..200_000u64 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let key = fingerprint(&(state % 20_000).to_le_bytes());
            match state >> 62 {
                0 => {
                    table.remove(key);
                    model.remove(&key);
                }
                _ => {
                    table.insert(key, (step % 7) as u32);
                    model.insert(key, (step % 7) as u32);
                }
            }
            assert_eq!(table.len(), model.len());
        }
        for value in 0..20_000u64 {
            let key = fingerprint(&value.to_le_bytes());
            assert_eq!(table.get(key), model.get(&key).copied());
        }
    }
}
