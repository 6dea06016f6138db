//! The search's clock: wall-clock seconds, or CPU seconds of the searching thread.

use std::time::Instant;

/// A clock reading seconds from an arbitrary start.
pub struct Clock {
    cpu: bool,
    origin: Instant,
}

impl Clock {
    /// A wall clock, or (with `cpu`) the CPU time of the calling thread: a busy machine does
    /// not shorten a CPU budget, and each thread of a multi-threaded worker gets its own.
    pub fn new(cpu: bool) -> Self {
        Clock { cpu, origin: Instant::now() }
    }

    pub fn now(&self) -> f64 {
        if self.cpu {
            thread_cpu_seconds()
        } else {
            self.origin.elapsed().as_secs_f64()
        }
    }
}

/// CPU seconds used by the calling thread.
pub fn thread_cpu_seconds() -> f64 {
    let mut spec = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut spec) };
    if status != 0 {
        return 0.0;
    }
    spec.tv_sec as f64 + spec.tv_nsec as f64 * 1e-9
}
