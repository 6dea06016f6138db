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

/// The slots' memory. Each page of fresh memory costs the kernel's zeroing when first written
/// (on the machines measured, about a second a GiB, thirty times a `memset` of memory already
/// in use), so the table grows in place: on Linux its slots live at the start of an address
/// range reserved once, far larger than any table (no memory is taken until a page is
/// written), and doubling the table only takes the next pages of it; elsewhere, or when the
/// reservation is refused, a vector that `grow` extends. A table starts as a vector all the
/// same, and moves into a reservation only when it reaches [`RESERVE_FROM`]: a small search
/// (most deals, every world of a hint) would pay the mapping and its fresh pages, about a
/// quarter of its time, where the allocator hands it memory already in use.
///
/// A large table asks the kernel for huge pages: the search reads its slots at random, and with
/// 4 KiB pages nearly every read of a table of hundreds of MiB also misses the processor's
/// page-translation cache (a page walk, twice as long in a virtual machine) before the memory
/// is fetched; with 2 MiB pages the translations of the whole table fit that cache. Only a hint
/// (the kernel may refuse it): the contents are the same.
enum Slots {
    #[cfg(target_os = "linux")]
    Reserved(Reservation),
    Heap(Vec<[u64; 2]>),
}

impl Slots {
    /// `capacity` empty slots, in a vector (see [`Slots::extend`]).
    fn new(capacity: usize) -> Self {
        Slots::Heap(vec![[EMPTY, 0]; capacity])
    }

    /// Make the slots `capacity` long (no shorter than now), the new ones empty: a vector
    /// that reaches [`RESERVE_FROM`] moves into a reservation, when the system grants one.
    fn extend(&mut self, capacity: usize) {
        match self {
            #[cfg(target_os = "linux")]
            Slots::Reserved(reservation) if capacity <= RESERVED_SLOTS => {
                reservation.extend(capacity)
            }
            #[cfg(target_os = "linux")]
            Slots::Reserved(reservation) => {
                let mut heap = reservation.slots().to_vec();
                heap.resize(capacity, [EMPTY, 0]);
                *self = Slots::Heap(heap);
            }
            Slots::Heap(heap) => {
                #[cfg(target_os = "linux")]
                if capacity * std::mem::size_of::<[u64; 2]>() >= RESERVE_FROM {
                    if let Some(mut reservation) = Reservation::new() {
                        reservation.extend(capacity);
                        reservation.slots_mut()[..heap.len()].copy_from_slice(heap);
                        *self = Slots::Reserved(reservation);
                        return;
                    }
                }
                heap.resize(capacity, [EMPTY, 0]);
            }
        }
    }

    /// The slots of a table that starts in a reservation (for the tests of that memory).
    #[cfg(all(test, target_os = "linux"))]
    fn reserved(capacity: usize) -> Self {
        let mut reservation = Reservation::new().expect("a reservation");
        reservation.extend(capacity);
        Slots::Reserved(reservation)
    }

    fn slots(&self) -> &[[u64; 2]] {
        match self {
            #[cfg(target_os = "linux")]
            Slots::Reserved(reservation) => reservation.slots(),
            Slots::Heap(heap) => heap,
        }
    }

    fn slots_mut(&mut self) -> &mut [[u64; 2]] {
        match self {
            #[cfg(target_os = "linux")]
            Slots::Reserved(reservation) => reservation.slots_mut(),
            Slots::Heap(heap) => heap,
        }
    }
}

impl std::ops::Deref for Slots {
    type Target = [[u64; 2]];
    fn deref(&self) -> &Self::Target {
        self.slots()
    }
}

impl std::ops::DerefMut for Slots {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.slots_mut()
    }
}

/// The size from which a table's slots live in a reservation (8 MiB, where huge pages start).
const RESERVE_FROM: usize = 8 << 20;

/// The most slots a reservation holds (32 GiB of address space: beyond the memory of any
/// machine a search runs on).
#[cfg(target_os = "linux")]
const RESERVED_SLOTS: usize = 1 << 31;

/// An address range reserved for a table's slots, the first `len` of them in use.
#[cfg(target_os = "linux")]
struct Reservation {
    /// The mapping as the kernel made it (for `munmap`).
    mapping: *mut libc::c_void,
    mapped_bytes: usize,
    /// The first slot, on a 2 MiB boundary of the mapping.
    base: *mut [u64; 2],
    len: usize,
}

// SAFETY: a reservation owns its mapping alone, as a vector owns its buffer.
#[cfg(target_os = "linux")]
unsafe impl Send for Reservation {}

#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

#[cfg(target_os = "linux")]
impl Reservation {
    fn new() -> Option<Self> {
        let mapped_bytes = RESERVED_SLOTS * std::mem::size_of::<[u64; 2]>() + HUGE_PAGE;
        // SAFETY: a fresh private anonymous mapping, readable and writable, not backed by swap
        // reservations (MAP_NORESERVE: only the pages written take memory).
        let mapping = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped_bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if mapping == libc::MAP_FAILED {
            return None;
        }
        let offset = (mapping as usize).next_multiple_of(HUGE_PAGE) - mapping as usize;
        // SAFETY: `offset` < HUGE_PAGE, inside the mapping.
        let base = unsafe { mapping.cast::<u8>().add(offset) }.cast::<[u64; 2]>();
        Some(Reservation { mapping, mapped_bytes, base, len: 0 })
    }

    /// Take the slots up to `capacity` into use (fresh pages read as zero: empty slots).
    fn extend(&mut self, capacity: usize) {
        debug_assert!(capacity >= self.len && capacity <= RESERVED_SLOTS);
        self.len = capacity;
        let bytes = capacity * std::mem::size_of::<[u64; 2]>();
        if bytes >= 4 * HUGE_PAGE {
            // SAFETY: madvise only gives advice, on pages of this mapping.
            unsafe {
                libc::madvise(self.base.cast(), bytes, libc::MADV_HUGEPAGE);
            }
        }
    }

    fn slots(&self) -> &[[u64; 2]] {
        // SAFETY: the first `len` slots lie inside the mapping, which lives as long as `self`;
        // they are zero or written as slots, and any bytes are a valid `[u64; 2]`.
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }

    fn slots_mut(&mut self) -> &mut [[u64; 2]] {
        // SAFETY: as in `slots`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.base, self.len) }
    }
}

#[cfg(target_os = "linux")]
impl Drop for Reservation {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once; no slice of it outlives `self`.
        unsafe {
            libc::munmap(self.mapping, self.mapped_bytes);
        }
    }
}

/// Ask the processor to bring slot `index` of `slots` into the cache (none: nothing).
#[inline]
fn prefetch_slot(slots: &[[u64; 2]], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(slot) = slots.get(index) {
        // SAFETY: a prefetch only hints the cache; the pointer is to a live slot.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                slot.as_ptr() as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, index);
}

/// A set of fingerprints, each with a counter.
pub struct Table {
    slots: Slots,
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
        Table { slots: Slots::new(capacity), mask: capacity - 1, len: 0 }
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
        prefetch_slot(&self.slots, self.home(split(key).0));
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

    /// Double the slots in place (see [`Slots`]): only the new half is fresh memory.
    fn grow(&mut self) {
        let capacity = self.mask + 1;
        // With the run of keys that wraps around the end taken out, every key lies at or after
        // its home, and its new home is the old one or that plus `capacity`. Moving the keys
        // in order of place puts each where a search will find it: the places from its home
        // to it hold only keys already moved (or none), and so does the new half.
        let slots = &mut self.slots[..];
        let wrapped_end = slots.iter().position(|slot| slot[0] == EMPTY).expect("never full");
        let wrapped = slots[..wrapped_end].to_vec();
        slots[..wrapped_end].fill([EMPTY, 0]);
        self.slots.extend(capacity * 2);
        self.mask = capacity * 2 - 1;
        for index in wrapped_end..capacity {
            let slot = self.slots[index];
            if slot[0] != EMPTY {
                self.slots[index] = [EMPTY, 0];
                self.put_back(slot);
            }
        }
        for slot in wrapped {
            self.put_back(slot);
        }
    }

    /// Store a slot taken out of the table (its key is not in it).
    fn put_back(&mut self, slot: [u64; 2]) {
        let Err(index) = self.find(slot[0], slot[1] & !WORSE_BITS) else {
            unreachable!("keys are unique")
        };
        self.slots[index] = slot;
    }
}

/// A lossy memo of fingerprint -> small number: direct-mapped (a key takes its slot from any
/// key there before), so a key asked for may have been forgotten, never mistaken (a slot holds
/// the same 95 bits of the fingerprint as the table's). It takes no memory until a key is
/// kept, then starts small, as most searches are, and grows eightfold each time it has been
/// asked half its slots, to [`MEMO_MOST_SLOTS`] (in huge pages from 8 MiB, as the table); keys
/// kept before a growth are mostly lost by it.
pub struct Memo {
    slots: Slots,
    mask: usize,
    asked: usize,
}

/// The memo's largest size (16 MiB).
pub const MEMO_MOST_SLOTS: usize = 1 << 20;

impl Default for Memo {
    fn default() -> Self {
        Self::new()
    }
}

/// The memo's first size, taken at the first key kept (256 KiB).
const MEMO_FIRST_SLOTS: usize = 1 << 14;

impl Memo {
    /// An empty memo, with no memory until a key is kept (an adapter made for one move
    /// takes none).
    pub fn new() -> Self {
        Memo { slots: Slots::new(0), mask: 0, asked: 0 }
    }

    #[inline]
    fn home(&self, high: u64) -> usize {
        ((high >> 1) as usize) & self.mask
    }

    /// The number kept with `key`, if it is still there.
    #[inline]
    pub fn get(&mut self, key: Key) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.asked += 1;
        if 2 * self.asked > self.mask + 1 && self.mask + 1 < MEMO_MOST_SLOTS {
            let capacity = ((self.mask + 1) * 8).min(MEMO_MOST_SLOTS);
            self.slots.extend(capacity);
            self.mask = capacity - 1;
            self.asked = 0;
        }
        let (high, low) = split(key);
        let slot = self.slots[self.home(high)];
        (slot[0] == high && slot[1] & !WORSE_BITS == low).then_some((slot[1] & WORSE_BITS) as u32)
    }

    /// Ask the processor to bring `key`'s slot into the cache.
    #[inline]
    pub fn prefetch(&self, key: Key) {
        prefetch_slot(&self.slots, self.home(split(key).0));
    }

    /// Keep `value` with `key` (in place of whatever its slot held).
    #[inline]
    pub fn put(&mut self, key: Key, value: u32) {
        if self.slots.is_empty() {
            self.slots.extend(MEMO_FIRST_SLOTS);
            self.mask = MEMO_FIRST_SLOTS - 1;
        }
        let (high, low) = split(key);
        let home = self.home(high);
        self.slots[home] = [high, low | u64::from(value)];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::fingerprint;
    use std::collections::HashMap;

    /// A key whose home in a table of `capacity` slots is `home` (`tag` tells keys apart).
    fn key_at_home(home: u64, capacity: u64, tag: u64) -> Key {
        // The home is the high word's bits above its lowest, modulo the capacity.
        let high = ((home + capacity * tag) << 1) | 1;
        (Key::from(high) << 64) | Key::from(tag << 32)
    }

    /// Random inserts and removals against a map, checked in full after every doubling; some
    /// keys crowd the last slots of the first table, so that a run of keys wraps around its
    /// end when it grows.
    fn behaves_like_a_map(mut table: Table) {
        let mut model: HashMap<Key, u32> = HashMap::new();
        for tag in 1..=6 {
            let key = key_at_home(4095, 4096, tag);
            table.insert(key, 1);
            model.insert(key, 1);
        }
        let mut state = 1u64;
        let mut capacity = table.mask + 1;
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
            if table.mask + 1 != capacity {
                capacity = table.mask + 1;
                for (&key, &worse) in &model {
                    assert_eq!(table.get(key), Some(worse), "after growing to {capacity}");
                }
            }
        }
        assert!(capacity >= 1 << 15, "the table grew several times");
        for value in 0..20_000u64 {
            let key = fingerprint(&value.to_le_bytes());
            assert_eq!(table.get(key), model.get(&key).copied());
        }
        for tag in 1..=6 {
            assert_eq!(table.get(key_at_home(4095, 4096, tag)), Some(1));
        }
    }

    #[test]
    fn behaves_like_a_map_under_inserts_and_removals() {
        behaves_like_a_map(Table::new());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn behaves_like_a_map_in_a_reservation_too() {
        let capacity = 1 << 12;
        behaves_like_a_map(Table { slots: Slots::reserved(capacity), mask: capacity - 1, len: 0 });
    }

    /// A table growing through the size where it moves into a reservation keeps its keys.
    #[test]
    fn keeps_its_keys_when_it_moves_into_a_reservation() {
        let mut table = Table::new();
        let count = (RESERVE_FROM / std::mem::size_of::<[u64; 2]>()) as u64;
        for value in 0..count {
            table.insert(fingerprint(&value.to_le_bytes()), (value % 5) as u32);
        }
        #[cfg(target_os = "linux")]
        assert!(matches!(table.slots, Slots::Reserved(_)));
        for value in (0..count).step_by(97) {
            assert_eq!(table.get(fingerprint(&value.to_le_bytes())), Some((value % 5) as u32));
        }
        assert_eq!(table.len(), count as usize);
    }

    /// The memo gives back what it keeps, never another key's number, and keeps most of the
    /// recent keys as it grows.
    #[test]
    fn a_memo_forgets_but_never_mistakes() {
        let mut memo = Memo::new();
        let mut kept = 0;
        for round in 0..4u64 {
            for value in 0..300_000u64 {
                let key = fingerprint(&value.to_le_bytes());
                match memo.get(key) {
                    Some(number) => {
                        assert_eq!(u64::from(number), value % 7, "round {round}");
                        kept += 1;
                    }
                    None => memo.put(key, (value % 7) as u32),
                }
            }
        }
        assert_eq!(memo.mask + 1, MEMO_MOST_SLOTS);
        assert!(kept > 600_000, "{kept} of 900,000 asked again were kept");
    }

    #[test]
    fn behaves_like_a_map_in_a_vector_too() {
        let capacity = 1 << 12;
        behaves_like_a_map(Table {
            slots: Slots::Heap(vec![[EMPTY, 0]; capacity]),
            mask: capacity - 1,
            len: 0,
        });
    }
}
