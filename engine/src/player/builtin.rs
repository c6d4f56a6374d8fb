//! Kibitz's own engine as a [`Player`]: the engine thread behind an [`EngineHandle`].

use std::time::Duration;

use crate::file_options::{set_network_file, set_tablebases};
use crate::search::max_threads;
use crate::search::params::{DEFAULT_HASH_MB, MAX_HASH_MB};
use crate::{
    Command, ENGINE_NAME, EngineHandle, EngineOption, Event, OptionKind, Player, check_option,
    evaluation_options, strength_options,
};

/// The options the built-in engine takes through [`Command::SetOption`].
fn builtin_options() -> Vec<EngineOption> {
    let mut options = vec![
        EngineOption {
            name: "Hash".into(),
            kind: OptionKind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: MAX_HASH_MB as i64 },
        },
        EngineOption { name: "Clear Hash".into(), kind: OptionKind::Button },
        EngineOption {
            name: "Threads".into(),
            kind: OptionKind::Spin { default: 1, min: 1, max: i64::try_from(max_threads()).unwrap_or(1) },
        },
        EngineOption { name: "SyzygyPath".into(), kind: OptionKind::Path { default: String::new() } },
    ];
    options.extend(evaluation_options());
    options.extend(strength_options());
    options
}

impl Player for EngineHandle {
    fn name(&self) -> &str {
        ENGINE_NAME
    }

    fn options(&self) -> Vec<EngineOption> {
        builtin_options()
    }

    fn send(&self, cmd: Command) {
        match cmd {
            Command::SetOption { name, value } => match check_option(&builtin_options(), &name, &value) {
                Ok(_) if name.eq_ignore_ascii_case("Clear Hash") => {
                    EngineHandle::send(self, Command::ClearHash)
                }
                Ok(value) if name.eq_ignore_ascii_case("Threads") => {
                    if let Ok(threads) = value.parse() {
                        self.set_threads(threads);
                    }
                }
                Ok(value) if name.eq_ignore_ascii_case("SyzygyPath") => {
                    if let Err(e) = set_tablebases(&value, |cmd| EngineHandle::send(self, cmd)) {
                        self.report(Event::Message(format!("{ENGINE_NAME}: {e}")));
                    }
                }
                Ok(value) if name.eq_ignore_ascii_case("UseNNUE") => {
                    EngineHandle::send(self, Command::UseNetwork(value.eq_ignore_ascii_case("true")));
                }
                Ok(value) if name.eq_ignore_ascii_case("EvalFile") => {
                    if let Err(e) = set_network_file(&value, |cmd| EngineHandle::send(self, cmd)) {
                        self.report(Event::Message(format!("{ENGINE_NAME}: {e}")));
                    }
                }
                Ok(value) if name.eq_ignore_ascii_case("UCI_LimitStrength") => {
                    self.limit_strength(value.eq_ignore_ascii_case("true"));
                }
                Ok(value) if name.eq_ignore_ascii_case("UCI_Elo") => {
                    if let Ok(elo) = value.parse() {
                        self.set_elo(elo);
                    }
                }
                Ok(value) => {
                    if let Ok(megabytes) = value.parse() {
                        self.set_hash_size(megabytes);
                    }
                }
                Err(e) => self.report(Event::Message(format!("{ENGINE_NAME}: {e}"))),
            },
            other => EngineHandle::send(self, other),
        }
    }

    fn try_recv(&self) -> Option<Event> {
        EngineHandle::try_recv(self)
    }

    fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        EngineHandle::recv_timeout(self, timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Purpose, SearchLimits};

    #[test]
    fn the_builtin_engine_plays_through_the_player_interface() {
        let player: Box<dyn Player> = Box::new(EngineHandle::spawn(|| {}));
        assert_eq!(player.name(), ENGINE_NAME);
        player.send(Command::SetOption { name: "Hash".into(), value: "4".into() });
        player.send(Command::SetOption { name: "Hash".into(), value: "100000".into() });
        let threads = crate::search::max_threads();
        player.send(Command::SetOption { name: "Threads".into(), value: threads.to_string() });
        player.send(Command::SetOption { name: "Threads".into(), value: (threads + 1).to_string() });
        player.send(Command::Go { id: 1, purpose: Purpose::Analyse, limits: SearchLimits::depth(3) });
        let (mut refused, mut too_many) = (false, false);
        loop {
            match player.recv_timeout(Duration::from_secs(30)) {
                Some(Event::Message(text)) => {
                    refused |= text.contains("not a valid value for Hash");
                    too_many |= text.contains("not a valid value for Threads");
                }
                Some(Event::BestMove { id: 1, best, .. }) => {
                    assert!(best.is_some());
                    break;
                }
                Some(_) => {}
                None => panic!("no best move"),
            }
        }
        assert!(refused, "an out-of-range Hash is refused with a message");
        assert!(too_many, "more threads than cores are refused with a message");
    }
}
