//! Helpers of the crate's tests.

/// A small xorshift generator from `seed` (not zero): each call gives a number below its
/// bound. The random positions of the tests are drawn from it, the same on every machine.
pub fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    }
}
