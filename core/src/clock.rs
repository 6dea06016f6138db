//! The search's clock: wall-clock seconds, or CPU seconds of the searching thread; and the
//! bots' budget of playouts.

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

/// A bot's budget of playouts (the tree searches of Double Solitaire and Leopard): `most` of
/// them, or as many as fit in `seconds` of wall time.
pub struct Playouts {
    seconds: Option<f64>,
    most: u64,
    started: Instant,
    done: u64,
}

impl Playouts {
    pub fn new(seconds: Option<f64>, most: u64) -> Self {
        Playouts { seconds, most, started: Instant::now(), done: 0 }
    }

    /// Whether another playout fits in the budget; it counts as done when it does.
    pub fn another(&mut self) -> bool {
        let fits = match self.seconds {
            Some(seconds) => self.started.elapsed().as_secs_f64() < seconds,
            None => self.done < self.most,
        };
        self.done += u64::from(fits);
        fits
    }

    /// The playouts begun so far.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// Whether the choice at the root is made whatever the playouts left do: with a count
    /// budget, looked at every 100 playouts, the most visited of the root's `visits` leads the
    /// next by more than the playouts left.
    pub fn settled(&self, visits: impl Iterator<Item = u32>) -> bool {
        if self.seconds.is_some() || !self.done.is_multiple_of(100) {
            return false;
        }
        let mut counts: Vec<u32> = visits.collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        counts.len() > 1 && u64::from(counts[0] - counts[1]) > self.most - self.done
    }
}
