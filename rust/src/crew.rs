//! A few helper threads that join the calling thread in short parallel
//! loops, and stay awake for a moment between them.
//!
//! A [`VectorEnv`](crate::vector_env::VectorEnv) step of a thousand envs
//! takes about 100 µs. A rayon worker falls asleep within microseconds of
//! running out of work, and waking it (a futex, and on a virtual machine an
//! idle virtual CPU) can take about as long as the step itself: the calling
//! thread then does the whole step alone and waits for the late helper on
//! top. The crew's helpers instead spin for [`SPIN`] after each loop, as
//! `OpenMP` runtimes do, so that steps taken one after another find them
//! awake; with no work coming they fall asleep.
//!
//! [`Crew::run`] is the whole interface: `work(0)` is called on the calling
//! thread and `work(k)` on helper `k` (1 to `helpers`) if it comes in time;
//! `work` shares out the work itself (atomic counters over chunks, say), so
//! a helper that comes late finds nothing left, and may give each worker
//! the same part at each call (a helper keeps its number), which keeps the
//! part's memory in that worker's cache. `run` returns once every helper
//! that joined has left `work`, so `work` may borrow from the caller's
//! stack.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError, TryLockError};
use std::thread;
use std::time::{Duration, Instant};

/// How long a helper stays awake, waiting for work, after its last loop.
pub const SPIN: Duration = Duration::from_micros(200);

/// The most helpers the crew will have.
const MOST_HELPERS: usize = 63;

/// `state`: the loop's number in the high 32 bits, then whether it is open
/// to helpers, then how many helpers are inside `work`.
const OPEN: u64 = 1 << 31;
const INSIDE: u64 = OPEN - 1;
const EPOCH: u64 = 1 << 32;

/// The work of the current loop, with its lifetime erased: only read by a
/// helper that joined the loop while it was open, and the caller waits for
/// every such helper before its borrow ends.
type Work = *const (dyn Fn(usize) + Sync);

/// Helper threads shared by every caller; one loop runs at a time.
pub struct Crew {
    state: AtomicU64,
    /// The highest helper number called in the current loop.
    called: AtomicUsize,
    work: Mutex<Option<SendWork>>,
    /// A panic of a helper inside the current loop, resumed by the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
    /// Helpers asleep, and what wakes them.
    sleepers: AtomicUsize,
    bed: Mutex<()>,
    alarm: Condvar,
    /// Helpers started so far.
    helpers: Mutex<usize>,
    /// Held by the caller of the running loop.
    caller: Mutex<()>,
}

struct SendWork(Work);

// SAFETY: the pointee is `Sync`, and it is only called while the caller of
// `Crew::run` keeps it alive (see `Crew::run`).
unsafe impl Send for SendWork {}

impl Crew {
    /// The crew of the process.
    pub fn global() -> &'static Crew {
        static CREW: OnceLock<Crew> = OnceLock::new();
        CREW.get_or_init(|| Crew {
            state: AtomicU64::new(0),
            called: AtomicUsize::new(0),
            work: Mutex::new(None),
            panic: Mutex::new(None),
            sleepers: AtomicUsize::new(0),
            bed: Mutex::new(()),
            alarm: Condvar::new(),
            helpers: Mutex::new(0),
            caller: Mutex::new(()),
        })
    }

    /// Calls `work(0)` on this thread and `work(k)` on helper `k` for `k`
    /// in `1..=helpers` (the helpers that come in time), and returns when
    /// every call has returned. If another loop is running (another
    /// thread's), only `work(0)` runs.
    ///
    /// A panic in any call is resumed here, after every call has returned.
    pub fn run(&'static self, helpers: usize, work: &(dyn Fn(usize) + Sync)) {
        let helpers = helpers.min(MOST_HELPERS);
        let _caller = match self.caller.try_lock() {
            Ok(guard) if helpers > 0 => guard,
            Err(TryLockError::Poisoned(poisoned)) if helpers > 0 => poisoned.into_inner(),
            _ => {
                work(0);
                return;
            }
        };
        self.hire(helpers);
        lock(&self.panic).take();
        // SAFETY (of the erased lifetime): `Closing` below waits, also when
        // `work` panics here, until no helper is inside the loop, and a
        // helper can join only while the loop is open.
        let erased: Work = std::ptr::from_ref(unsafe {
            std::mem::transmute::<&(dyn Fn(usize) + Sync + '_), &'static (dyn Fn(usize) + Sync)>(
                work,
            )
        });
        *lock(&self.work) = Some(SendWork(erased));
        self.called.store(helpers, Ordering::SeqCst);
        let epoch = (self.state.load(Ordering::SeqCst) & !(OPEN | INSIDE)).wrapping_add(EPOCH);
        self.state.store(epoch | OPEN, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _bed = lock(&self.bed);
            self.alarm.notify_all();
        }
        let closing = Closing(self);
        work(0);
        drop(closing);
        if let Some(payload) = lock(&self.panic).take() {
            panic::resume_unwind(payload);
        }
    }

    /// Starts helpers until there are `helpers`.
    fn hire(&'static self, helpers: usize) {
        let mut hired = lock(&self.helpers);
        while *hired < helpers {
            *hired += 1;
            thread::Builder::new()
                .name(format!("veletas-crew-{hired}"))
                .spawn({
                    let number = *hired;
                    move || self.serve(number)
                })
                .expect("a helper thread starts");
        }
    }

    /// The life of helper `number`: join each loop it finds open, spin a
    /// while after it, sleep when none comes.
    fn serve(&self, number: usize) {
        let mut seen = 0;
        loop {
            let since = Instant::now();
            let mut state = self.state.load(Ordering::SeqCst);
            while !is_new(state, seen) && since.elapsed() < SPIN {
                std::hint::spin_loop();
                state = self.state.load(Ordering::SeqCst);
            }
            if !is_new(state, seen) {
                state = self.sleep(seen);
            }
            seen = state & !(OPEN | INSIDE);
            self.join(number, state);
        }
    }

    /// Sleeps until a loop other than `seen` opens; returns its state.
    fn sleep(&self, seen: u64) -> u64 {
        let mut bed = lock(&self.bed);
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let state = loop {
            let state = self.state.load(Ordering::SeqCst);
            if is_new(state, seen) {
                break state;
            }
            bed = self.alarm.wait(bed).unwrap_or_else(PoisonError::into_inner);
        };
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        state
    }

    /// Helper `number` joins the loop of `state` if it is still open, and
    /// works in it if the loop calls that many helpers.
    fn join(&self, number: usize, mut state: u64) {
        loop {
            if state & OPEN == 0 {
                return;
            }
            match self.state.compare_exchange_weak(
                state,
                state + 1,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => break,
                Err(now) if now & !(OPEN | INSIDE) == state & !(OPEN | INSIDE) => state = now,
                Err(_) => return, // a later loop: the next round of `serve` finds it
            }
        }
        if number <= self.called.load(Ordering::SeqCst) {
            let work = lock(&self.work).as_ref().map(|work| work.0);
            if let Some(work) = work {
                // SAFETY: this helper is counted inside the loop, so the
                // caller is still waiting and `work` is alive.
                let work = unsafe { &*work };
                if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(|| work(number))) {
                    lock(&self.panic).get_or_insert(payload);
                }
            }
        }
        self.state.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether `state` is a loop open to helpers that a helper, which last saw
/// loop `seen`, has not joined.
fn is_new(state: u64, seen: u64) -> bool {
    state & OPEN != 0 && state & !(OPEN | INSIDE) != seen
}

/// Closes the loop to helpers and waits until none is inside, when the
/// caller's own `work` returns or unwinds.
struct Closing(&'static Crew);

impl Drop for Closing {
    fn drop(&mut self) {
        let crew = self.0;
        crew.state.fetch_and(!OPEN, Ordering::SeqCst);
        let mut spins = 0_u32;
        while crew.state.load(Ordering::SeqCst) & INSIDE != 0 {
            spins += 1;
            if spins < 1 << 16 {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        *lock(&crew.work) = None;
    }
}

/// Locks `mutex`, whose data stays valid if a holder panicked.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums 0..n in chunks of 8, shared out by a counter.
    fn sum_in_chunks(helpers: usize, n: usize) -> usize {
        let next = AtomicUsize::new(0);
        let total = AtomicUsize::new(0);
        let work = |_| {
            loop {
                let chunk = next.fetch_add(1, Ordering::Relaxed);
                if chunk * 8 >= n {
                    break;
                }
                let part: usize = (chunk * 8..(chunk * 8 + 8).min(n)).sum();
                total.fetch_add(part, Ordering::Relaxed);
            }
        };
        Crew::global().run(helpers, &work);
        total.into_inner()
    }

    #[test]
    fn every_chunk_is_done_once_with_any_number_of_helpers() {
        for helpers in [0, 1, 3] {
            for round in 0..200 {
                let n = 1000 + round;
                assert_eq!(sum_in_chunks(helpers, n), n * (n - 1) / 2);
            }
            // Long enough apart that the helpers fall asleep, and wake.
            thread::sleep(SPIN * 3);
            assert_eq!(sum_in_chunks(helpers, 5000), 5000 * 4999 / 2);
        }
    }

    #[test]
    fn loops_from_several_threads_all_finish() {
        let sums: Vec<usize> = thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| sum_in_chunks(2, 100_000)))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(sums.iter().all(|&sum| sum == 100_000 * 99_999 / 2));
    }

    #[test]
    fn a_panic_inside_the_loop_reaches_the_caller_after_the_helpers_leave() {
        let calls = AtomicUsize::new(0);
        let work = |_| {
            calls.fetch_add(1, Ordering::SeqCst);
            thread::sleep(Duration::from_millis(2));
            panic!("inside the loop");
        };
        let caught = panic::catch_unwind(AssertUnwindSafe(|| Crew::global().run(2, &work)));
        assert!(caught.is_err());
        let after = calls.load(Ordering::SeqCst);
        assert!((1..=3).contains(&after));
        // The crew still works.
        assert_eq!(sum_in_chunks(2, 1000), 1000 * 999 / 2);
    }
}
