//! A background job: work that runs on its own thread, reports its progress, stops when asked
//! and ends in an outcome that its owner collects without blocking.
//!
//! The owner (a GUI panel, a command) starts the work with [`Job::spawn`] and, whenever it
//! likes, reads the latest progress ([`Job::progress`]) and asks whether the work has ended
//! ([`Job::try_finish`]). The `wake` callback given at the start is called whenever there is
//! news (a progress report or the end), so a GUI passes its repaint request and never polls
//! on a timer. Dropping a job cancels it; a panic in the work becomes
//! [`JobError::Crashed`], naming the job.
//!
//! ```
//! use std::convert::Infallible;
//! use kibitz_engine::{Job, JobError};
//! let mut job = Job::spawn("count", || {}, |ctx| {
//!     let mut sum = 0u64;
//!     for i in 0..1000u64 {
//!         if ctx.is_cancelled() {
//!             break;
//!         }
//!         sum += i;
//!         ctx.progress(i);
//!     }
//!     Ok::<_, Infallible>(sum)
//! });
//! let outcome = loop {
//!     if let Some(outcome) = job.try_finish() {
//!         break outcome;
//!     }
//!     let _latest: Option<u64> = job.progress();
//!     std::thread::yield_now();
//! };
//! assert_eq!(outcome, Ok(499_500));
//! ```

use std::any::Any;
use std::fmt;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// How a job ended without its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobError<E> {
    /// The work returned this error.
    Failed(E),
    /// The job was cancelled before its work returned; what the work returned is dropped.
    Cancelled,
    /// The work panicked, or its thread could not be started.
    Crashed {
        /// The job's name.
        job: String,
        /// The panic message, or why the thread did not start.
        reason: String,
    },
}

impl<E: fmt::Display> fmt::Display for JobError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Failed(e) => e.fmt(f),
            JobError::Cancelled => f.write_str("cancelled"),
            JobError::Crashed { job, reason } => write!(f, "the {job} job crashed: {reason}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for JobError<E> {}

/// What a job ends in.
pub type JobOutcome<T, E> = Result<T, JobError<E>>;

/// What the work and its owner share.
struct Shared<P> {
    name: String,
    cancelled: AtomicBool,
    latest: Mutex<Option<P>>,
    /// Flags set on cancel, for work that hands a stop flag to code that polls it.
    linked: Mutex<Vec<Arc<AtomicBool>>>,
    wake: Box<dyn Fn() + Send + Sync>,
}

/// Locks a mutex whose data stays valid even if a holder panicked (every write is whole).
fn lock<X>(mutex: &Mutex<X>) -> MutexGuard<'_, X> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The work's side of a job: where it reports progress and learns that it should stop.
pub struct JobContext<P> {
    shared: Arc<Shared<P>>,
}

impl<P> JobContext<P> {
    /// The job's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.shared.name
    }

    /// Replaces the latest progress and wakes the owner.
    pub fn progress(&self, progress: P) {
        *lock(&self.shared.latest) = Some(progress);
        (self.shared.wake)();
    }

    /// Whether the owner cancelled the job (or dropped it); the work should return soon.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancelled.load(Ordering::SeqCst)
    }

    /// Reports progress and says whether to go on: the shape of the progress callbacks of
    /// [`GameIndex::build`](crate::GameIndex::build) and
    /// [`BookBuilder::add_pgn`](crate::BookBuilder::add_pgn).
    pub fn report(&self, progress: P) -> ControlFlow<()> {
        self.progress(progress);
        if self.is_cancelled() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }

    /// Sets `flag` when the job is cancelled (at once if it already is), for work that hands
    /// a stop flag to code that polls it, such as a search.
    pub fn stop_on_cancel(&self, flag: &Arc<AtomicBool>) {
        lock(&self.shared.linked).push(Arc::clone(flag));
        if self.is_cancelled() {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

/// Work running on its own thread, reporting progress `P` and ending in `Result<T, E>`.
pub struct Job<P, T, E> {
    shared: Arc<Shared<P>>,
    outcome: Arc<Mutex<Option<JobOutcome<T, E>>>>,
    handle: Option<JoinHandle<()>>,
    collected: bool,
}

impl<P: Send + 'static, T: Send + 'static, E: Send + 'static> Job<P, T, E> {
    /// Starts `work` on a new thread named `name`. `wake` is called (on the work's thread)
    /// after each progress report and once the outcome is ready.
    pub fn spawn(
        name: impl Into<String>,
        wake: impl Fn() + Send + Sync + 'static,
        work: impl FnOnce(&JobContext<P>) -> Result<T, E> + Send + 'static,
    ) -> Self {
        let shared = Arc::new(Shared {
            name: name.into(),
            cancelled: AtomicBool::new(false),
            latest: Mutex::new(None),
            linked: Mutex::new(Vec::new()),
            wake: Box::new(wake),
        });
        let outcome = Arc::new(Mutex::new(None));
        let ctx = JobContext { shared: Arc::clone(&shared) };
        let slot = Arc::clone(&outcome);
        let spawned = std::thread::Builder::new().name(shared.name.clone()).spawn(move || {
            let returned = catch_unwind(AssertUnwindSafe(|| work(&ctx)));
            let ended = match returned {
                Err(panic) => {
                    Err(JobError::Crashed { job: ctx.shared.name.clone(), reason: panic_message(&*panic) })
                }
                Ok(_) if ctx.is_cancelled() => Err(JobError::Cancelled),
                Ok(Ok(value)) => Ok(value),
                Ok(Err(e)) => Err(JobError::Failed(e)),
            };
            *lock(&slot) = Some(ended);
            (ctx.shared.wake)();
        });
        let handle = match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                let job = shared.name.clone();
                *lock(&outcome) = Some(Err(JobError::Crashed { job, reason: format!("no thread: {e}") }));
                None
            }
        };
        Job { shared, outcome, handle, collected: false }
    }
}

impl<P, T, E> Job<P, T, E> {
    /// The job's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.shared.name
    }

    /// The latest progress reported, if any.
    #[must_use]
    pub fn progress(&self) -> Option<P>
    where
        P: Clone,
    {
        lock(&self.shared.latest).clone()
    }

    /// Asks the work to stop; the job then ends in [`JobError::Cancelled`] unless it had
    /// already ended.
    pub fn cancel(&self) {
        self.shared.cancelled.store(true, Ordering::SeqCst);
        for flag in lock(&self.shared.linked).iter() {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Whether [`Job::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.shared.cancelled.load(Ordering::SeqCst)
    }

    /// Whether the work has ended (its outcome is ready or was collected).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.collected || lock(&self.outcome).is_some()
    }

    /// The outcome, once, if the work has ended; never blocks.
    pub fn try_finish(&mut self) -> Option<JobOutcome<T, E>> {
        let outcome = lock(&self.outcome).take();
        self.collected |= outcome.is_some();
        outcome
    }

    /// Waits for the outcome (for commands and tests; a GUI uses [`Job::try_finish`]).
    /// After `try_finish` has returned the outcome there is none left to wait for, which
    /// comes back as [`JobError::Crashed`].
    pub fn wait(mut self) -> JobOutcome<T, E> {
        if let Some(handle) = self.handle.take() {
            // The work's panics are caught inside the thread, so joining cannot fail.
            let _ = handle.join();
        }
        self.try_finish().unwrap_or_else(|| {
            Err(JobError::Crashed {
                job: self.shared.name.clone(),
                reason: "the outcome was already taken".into(),
            })
        })
    }
}

impl<P, T, E> Drop for Job<P, T, E> {
    /// Cancels the work, which nobody will look at; does not wait for it.
    fn drop(&mut self) {
        self.cancel();
    }
}

impl<P, T, E> fmt::Debug for Job<P, T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Job")
            .field("name", &self.shared.name)
            .field("cancelled", &self.is_cancelled())
            .field("finished", &self.is_finished())
            .finish()
    }
}

/// The text of a panic payload.
fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;
    use std::sync::atomic::AtomicUsize;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use super::*;

    /// Polls `job` until it ends, failing after five seconds.
    fn finish<P, T, E>(job: &mut Job<P, T, E>) -> JobOutcome<T, E> {
        let start = Instant::now();
        loop {
            if let Some(outcome) = job.try_finish() {
                return outcome;
            }
            assert!(start.elapsed() < Duration::from_secs(5), "the job did not end");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn progress_is_seen_before_the_end() {
        let (go_on, gate) = mpsc::channel::<()>();
        let mut job = Job::spawn(
            "steps",
            || {},
            move |ctx| {
                ctx.progress(1u32);
                gate.recv().map_err(|_| "no go")?;
                ctx.progress(2);
                Ok::<_, &str>("done")
            },
        );
        let start = Instant::now();
        while job.progress() != Some(1) {
            assert!(start.elapsed() < Duration::from_secs(5), "no progress seen");
            std::thread::yield_now();
        }
        assert!(!job.is_finished());
        assert_eq!(job.try_finish(), None);
        go_on.send(()).expect("the job waits");
        assert_eq!(finish(&mut job), Ok("done"));
        assert_eq!(job.progress(), Some(2));
        assert!(job.is_finished());
        assert_eq!(job.try_finish(), None, "the outcome comes once");
    }

    #[test]
    fn errors_are_reported() {
        let job = Job::<(), (), _>::spawn("fails", || {}, |_| Err("no such file"));
        let outcome = job.wait();
        assert_eq!(outcome, Err(JobError::Failed("no such file")));
        assert_eq!(outcome.unwrap_err().to_string(), "no such file");
    }

    #[test]
    fn cancel_stops_the_work_promptly() {
        let mut job = Job::spawn(
            "forever",
            || {},
            |ctx: &JobContext<()>| {
                let mut rounds = 0u64;
                while !ctx.is_cancelled() {
                    rounds += 1;
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok::<_, Infallible>(rounds)
            },
        );
        std::thread::sleep(Duration::from_millis(20));
        let asked = Instant::now();
        job.cancel();
        assert!(job.is_cancelled());
        assert_eq!(finish(&mut job), Err(JobError::Cancelled));
        assert!(asked.elapsed() < Duration::from_secs(1), "{:?}", asked.elapsed());
    }

    #[test]
    fn dropping_a_job_cancels_it() {
        let (done, ended) = mpsc::channel();
        let job = Job::spawn(
            "dropped",
            || {},
            move |ctx: &JobContext<()>| {
                while !ctx.is_cancelled() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                done.send(()).map_err(|_| "nobody listens")
            },
        );
        drop(job);
        assert_eq!(ended.recv_timeout(Duration::from_secs(5)), Ok(()));
    }

    #[test]
    fn a_panic_names_the_job() {
        let mut job = Job::<(), (), Infallible>::spawn("exploding", || {}, |_| panic!("boom at {}", 42));
        let Err(error) = finish(&mut job) else { panic!("the job succeeded") };
        assert_eq!(error, JobError::Crashed { job: "exploding".into(), reason: "boom at 42".into() });
        assert_eq!(error.to_string(), "the exploding job crashed: boom at 42");
    }

    #[test]
    fn wake_is_called_for_progress_and_the_end() {
        let wakes = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&wakes);
        let job = Job::spawn(
            "waking",
            move || {
                counter.fetch_add(1, Ordering::SeqCst);
            },
            |ctx| {
                ctx.progress(1u8);
                ctx.progress(2);
                Ok::<_, Infallible>(())
            },
        );
        assert_eq!(job.wait(), Ok(()));
        assert_eq!(wakes.load(Ordering::SeqCst), 3, "two reports and the end");
    }

    #[test]
    fn linked_flags_are_set_on_cancel() {
        let flag = Arc::new(AtomicBool::new(false));
        let linked = Arc::clone(&flag);
        let mut job = Job::spawn(
            "linked",
            || {},
            move |ctx| {
                ctx.stop_on_cancel(&linked);
                ctx.progress(());
                // Stands for a search that polls only its own stop flag.
                while !linked.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok::<_, Infallible>(())
            },
        );
        let start = Instant::now();
        while job.progress().is_none() {
            assert!(start.elapsed() < Duration::from_secs(5), "the job did not start");
            std::thread::yield_now();
        }
        job.cancel();
        assert_eq!(finish(&mut job), Err(JobError::Cancelled));
        assert!(flag.load(Ordering::SeqCst));
    }

    #[test]
    fn report_breaks_once_cancelled() {
        let (go_on, gate) = mpsc::channel::<()>();
        let (reported, first_report) = mpsc::channel();
        let (answers, answered) = mpsc::channel();
        let mut job = Job::spawn(
            "reporting",
            || {},
            move |ctx| {
                let before = ctx.report(1u8);
                // Cancelled only once this report has returned, so that it cannot see the cancel.
                reported.send(()).map_err(|_| "nobody listens")?;
                gate.recv().map_err(|_| "no go")?;
                answers.send((before, ctx.report(2))).map_err(|_| "nobody listens")
            },
        );
        first_report.recv_timeout(Duration::from_secs(5)).expect("the first report");
        assert_eq!(job.progress(), Some(1));
        job.cancel();
        go_on.send(()).expect("the job waits");
        assert_eq!(finish(&mut job), Err(JobError::Cancelled));
        let reports = answered.recv().expect("the job answered");
        assert_eq!(reports, (ControlFlow::Continue(()), ControlFlow::Break(())));
        assert_eq!(job.progress(), Some(2));
    }
}
