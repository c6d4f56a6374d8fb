//! A match's engines: the built-in engine (at a level, with options and a book) or an
//! external program speaking UCI or xboard, each with its own time control and limits.

use std::fmt;
use std::sync::Arc;

use crate::policy::PolicySettings;
use crate::{
    Book, BookSettings, Command, EngineConfig, EngineHandle, ExternalEngine, Player, SearchLimits,
    SyzygyTables, TimeControl,
};

/// What plays.
#[derive(Clone)]
pub enum Program {
    /// Kibitz's own engine, in a thread of this process.
    Builtin {
        /// Its opening book, if any, chosen from as the app chooses.
        book: Option<Arc<Book>>,
        /// Syzygy tables it probes, shared by every instance (opened once).
        tablebases: Option<Arc<SyzygyTables>>,
    },
    /// A program run as a child process; its options are set after the handshake.
    External(EngineConfig),
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Program::Builtin { book, tablebases } => f
                .debug_struct("Builtin")
                .field("book", &book.as_ref().map(|b| b.len()))
                .field("tablebases", &tablebases.as_ref().map(|t| t.folder()))
                .finish(),
            Program::External(config) => f.debug_tuple("External").field(config).finish(),
        }
    }
}

/// One engine of a match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The name in the PGN tags and the results; unique within the match.
    pub name: String,
    /// What plays.
    pub program: Program,
    /// Options set after it starts (the built-in engine takes `Hash`).
    pub options: Vec<(String, String)>,
    /// Its time control (a clock, a fixed time, depth or node count, or none).
    pub control: TimeControl,
    /// Its own limits within the time control: a fixed depth or node count, a level's.
    pub limits: SearchLimits,
    /// The draw and resign manners the runner applies on its behalf (offers, answers,
    /// resignations: see [`crate::conductor`]); `None` plays on until the rules or the arbiter
    /// end the game, as an external engine speaks for itself.
    pub policy: Option<PolicySettings>,
}

impl EngineSpec {
    /// The built-in engine, named `name`, at `control`.
    #[must_use]
    pub fn builtin(name: &str, control: TimeControl) -> EngineSpec {
        EngineSpec {
            name: name.to_owned(),
            program: Program::Builtin { book: None, tablebases: None },
            options: Vec::new(),
            control,
            limits: SearchLimits::default(),
            policy: None,
        }
    }

    /// An external engine, named as its configuration says, at `control`.
    #[must_use]
    pub fn external(config: EngineConfig, control: TimeControl) -> EngineSpec {
        EngineSpec {
            name: config.name.clone(),
            program: Program::External(config),
            options: Vec::new(),
            control,
            limits: SearchLimits::default(),
            policy: None,
        }
    }

    /// Starts a fresh instance. An external engine's handshake goes on in the background
    /// (a [`Command::Ping`] answered says it is over); one that cannot be started at all
    /// reports its failure as its first event.
    #[must_use]
    pub fn start(&self) -> Box<dyn Player> {
        match &self.program {
            Program::Builtin { book, tablebases } => {
                let engine = EngineHandle::spawn(|| {});
                if let Some(tables) = tablebases {
                    Player::send(&engine, Command::SetTablebases(Some(Arc::clone(tables))));
                }
                for (name, value) in &self.options {
                    Player::send(&engine, Command::SetOption { name: name.clone(), value: value.clone() });
                }
                if let Some(book) = book {
                    let settings = BookSettings::default();
                    Player::send(
                        &engine,
                        Command::SetBook { book: Some(Arc::clone(book)), settings, seed: None },
                    );
                }
                Box::new(engine)
            }
            Program::External(config) => {
                let mut config = config.clone();
                config.name.clone_from(&self.name);
                for (name, value) in &self.options {
                    config.set_option(name, value);
                }
                Box::new(ExternalEngine::spawn(config, || {}))
            }
        }
    }
}

/// Gives engines of the same name a number (`Kibitz`, `Kibitz 2`), so that every name in a
/// match is unique.
pub fn unique_names(specs: &mut [EngineSpec]) {
    for i in 1..specs.len() {
        let base = specs[i].name.clone();
        let mut n = 1;
        while specs[..i].iter().any(|s| s.name == specs[i].name) {
            n += 1;
            specs[i].name = format!("{base} {n}");
        }
    }
}
