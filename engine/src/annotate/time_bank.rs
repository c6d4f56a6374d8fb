//! The time saved for second looks in one game's annotation. Under a time limit each move may
//! take two searches' time; the time a move does not use (the played move was the best, or the
//! engine stopped early) is saved, and a second look spends at most [`LOOK_SEARCHES`] searches'
//! time from the savings, never more than there is, so that a game never takes more than two
//! searches' time per move. A depth limit is a depth: every search goes to it, and there are no
//! second looks.

use std::time::Duration;

use super::{AnnotateLimit, AnnotateSettings};

/// The most time a second look takes, in searches.
const LOOK_SEARCHES: u32 = 4;

/// The time saved for second looks in one game's annotation.
#[derive(Debug)]
pub(super) struct TimeBank {
    /// The time of one search; `None` under a depth limit (no second looks).
    search: Option<Duration>,
    saved: Duration,
}

impl TimeBank {
    /// An empty bank for an annotation with these settings.
    pub fn new(settings: &AnnotateSettings) -> TimeBank {
        let search = match settings.limit {
            AnnotateLimit::Time(time) => Some(time),
            AnnotateLimit::Depth(_) => None,
        };
        TimeBank { search, saved: Duration::ZERO }
    }

    /// Settles a move's first searches, which took `spent` of the two searches' time a move
    /// may take.
    pub fn settle(&mut self, spent: Duration) {
        if let Some(search) = self.search {
            let allowed = search * 2;
            self.saved = if spent <= allowed {
                self.saved + (allowed - spent)
            } else {
                self.saved.saturating_sub(spent - allowed)
            };
        }
    }

    /// How long a second look may search, if the bank holds at least one search's time.
    pub fn look(&self) -> Option<Duration> {
        let search = self.search?;
        (self.saved >= search).then(|| self.saved.min(search * LOOK_SEARCHES))
    }

    /// Takes what a second look spent from the savings.
    pub fn spend(&mut self, spent: Duration) {
        self.saved = self.saved.saturating_sub(spent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bank_pays_second_looks_only_from_saved_time() {
        let second = Duration::from_secs(1);
        let settings = AnnotateSettings { limit: AnnotateLimit::Time(second), ..AnnotateSettings::default() };
        let mut bank = TimeBank::new(&settings);
        assert_eq!(bank.look(), None, "nothing saved yet");
        // Two full searches save nothing; a move that took one search saves one.
        bank.settle(second * 2);
        assert_eq!(bank.look(), None);
        bank.settle(second);
        assert_eq!(bank.look(), Some(second));
        // Overrunning the two searches is paid back from the savings.
        bank.settle(second * 2 + second / 2);
        assert_eq!(bank.look(), None);
        for _ in 0..10 {
            bank.settle(second);
        }
        assert_eq!(bank.look(), Some(second * LOOK_SEARCHES), "a look is capped");
        bank.spend(second * 10);
        assert_eq!(bank.look(), None);
    }
}
