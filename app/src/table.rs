//! A game at the board: who sits on each side (the player, Kibitz at a level, an external
//! engine), the [`Conductor`] that keeps the game, and the engines' searches. The app drains
//! the seats' players once per frame through [`Table::drain`].

use kibitz_engine::conductor::{Conductor, GameEvent};
use kibitz_engine::policy::score_cp;
use kibitz_engine::{
    Choice, Command, FailureKind, GameRecord, Player, PlayerFailure, Purpose, SearchInfo, SearchLimits,
};
use shakmaty::san::SanPlus;
use shakmaty::{ByColor, Chess, Color, Move, Position};

/// A search an engine is running for the game.
struct Thinking {
    id: u64,
    /// The position searched, to turn the principal variation into SAN.
    root: Chess,
    /// The latest score (centipawns, the engine's side) and depth, for book learning; `None`
    /// when the move comes from the book.
    search: Option<(i32, u8)>,
}

/// A search on the opponent's time, in the position after the reply the engine expects
/// (Crafty's `ponder on`).
struct Ponder {
    id: u64,
    /// The reply expected.
    expected: Move,
    /// The game's length once that reply is played.
    ply: usize,
    /// The position after it.
    root: Chess,
}

/// An engine at the board.
pub struct EngineSeat {
    player: Box<dyn Player>,
    /// The limits of its searches besides the clock (a level's depth or time).
    base: SearchLimits,
    /// Whether it is Kibitz's own engine (which learns and plays from the book).
    pub builtin: bool,
    /// Whether it finished its handshake.
    ready: bool,
    thinking: Option<Thinking>,
    /// Whether it thinks on the opponent's time (Kibitz's own engine only).
    ponders: bool,
    ponder: Option<Ponder>,
}

impl EngineSeat {
    /// An engine that searches within `base` (and the clock).
    #[must_use]
    pub fn new(player: Box<dyn Player>, base: SearchLimits, builtin: bool) -> Self {
        EngineSeat { player, base, builtin, ready: builtin, thinking: None, ponders: false, ponder: None }
    }

    /// Lets Kibitz's own engine think on the opponent's time (an external engine never does).
    #[must_use]
    pub fn pondering(mut self, on: bool) -> Self {
        self.ponders = on && self.builtin;
        self
    }
}

/// One side of the board.
pub struct Seat {
    /// The name shown and written in the PGN tags.
    pub name: String,
    /// The engine, or `None` for the person at the keyboard.
    pub engine: Option<EngineSeat>,
    /// The engine's current or last line, formatted for the panel.
    pub line: Option<String>,
    /// The first move of the engine's current line and its score (White's side, "+0.35"),
    /// for an arrow on the board.
    pub best: Option<(Move, String)>,
    /// The last thing the engine said for the user (UCI's `info string`, xboard's
    /// `telluser`), shown under its line.
    pub said: Option<String>,
}

impl Seat {
    /// The person at the keyboard.
    #[must_use]
    pub fn person(name: &str) -> Self {
        Seat { name: name.to_string(), engine: None, line: None, best: None, said: None }
    }

    /// An engine.
    #[must_use]
    pub fn engine(name: &str, engine: EngineSeat) -> Self {
        Seat { name: name.to_string(), engine: Some(engine), line: None, best: None, said: None }
    }
}

/// What the table reports to the app.
#[derive(Debug)]
pub enum News {
    /// Something happened in the game.
    Game(GameEvent),
    /// An engine finished a search for its move at `ply`, with its last score and depth
    /// (`None` for a book move), before the move is applied.
    Searched {
        /// The engine's side.
        side: Color,
        /// The ply it moved at.
        ply: usize,
        /// Its score and depth.
        search: Option<(i32, u8)>,
    },
}

/// The game and its two seats.
pub struct Table {
    /// The game, its clock and the engines' manners.
    pub conductor: Conductor,
    /// White's and Black's seats.
    pub seats: ByColor<Seat>,
    next_id: u64,
}

impl Table {
    /// A table for a game.
    #[must_use]
    pub fn new(conductor: Conductor, seats: ByColor<Seat>) -> Self {
        let table = Table { conductor, seats, next_id: 1 };
        table.send_engines(|_| Some(Command::NewGame));
        table
    }

    /// A study: the person plays both sides, no clock, no engine.
    #[must_use]
    pub fn study(game: GameRecord) -> Self {
        let conductor = Conductor::new(game, None, ByColor::new_with(|_| None));
        Table::new(conductor, ByColor::new_with(|_| Seat::person("Player")))
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &GameRecord {
        self.conductor.game()
    }

    /// Whether an engine plays `side`.
    #[must_use]
    pub fn is_engine(&self, side: Color) -> bool {
        self.seats.get(side).engine.is_some()
    }

    /// Whether an engine is searching for its move.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.seats.iter().any(|s| s.engine.as_ref().is_some_and(|e| e.thinking.is_some()))
    }

    /// Sends a command to each engine that `pick` gives one for (the built-in engine's book
    /// and learning, say).
    pub fn send_engines(&self, pick: impl Fn(&EngineSeat) -> Option<Command>) {
        for seat in self.seats.iter() {
            if let Some(engine) = &seat.engine
                && let Some(cmd) = pick(engine)
            {
                engine.player.send(cmd);
            }
        }
    }

    /// Switches pondering on or off for Kibitz's own engines; off stops their ponder searches.
    pub fn set_pondering(&mut self, on: bool) {
        for seat in self.seats.iter_mut() {
            if let Some(engine) = seat.engine.as_mut() {
                engine.ponders = on && engine.builtin;
                if !on && engine.ponder.take().is_some() {
                    engine.player.send(Command::Stop);
                }
            }
        }
    }

    /// The reply the engine playing `side` ponders on, if it does.
    #[must_use]
    pub fn pondering_on(&self, side: Color) -> Option<Move> {
        self.seats.get(side).engine.as_ref()?.ponder.as_ref().map(|p| p.expected)
    }

    /// Starts the search of the engine to move, if it is an engine's turn and it is idle. A
    /// ponder search whose reply was played becomes that search (`PonderHit`); one whose
    /// reply was not is stopped.
    pub fn start_search(&mut self) {
        self.settle_ponder();
        if self.conductor.is_over() {
            return;
        }
        let side = self.conductor.to_move();
        let Some(engine) = self.seats.get(side).engine.as_ref() else { return };
        if engine.thinking.is_some() || !engine.ready {
            return;
        }
        // Called every frame: the game is copied only when a search really starts.
        let game = self.conductor.game();
        let (start, moves, root) = (game.start().clone(), game.moves().to_vec(), game.position().clone());
        let limits = self.conductor.limits(side, engine.base.clone());
        let id = go(engine.player.as_ref(), &mut self.next_id, start, moves, limits);
        if let Some(engine) = self.seats.get_mut(side).engine.as_mut() {
            engine.thinking = Some(Thinking { id, root, search: None });
        }
    }

    /// Ends the ponder searches the game has moved past: a hit becomes the engine's search
    /// for its move, anything else (another reply, a take-back, the end of the game) stops.
    fn settle_ponder(&mut self) {
        let over = self.conductor.is_over();
        let game = self.conductor.game();
        let (ply, last) = (game.len(), game.moves().last().copied());
        for side in [Color::White, Color::Black] {
            let seat = self.seats.get_mut(side);
            let Some(engine) = seat.engine.as_mut() else { continue };
            let Some(ponder) = engine.ponder.as_ref() else { continue };
            if ply < ponder.ply && !over {
                continue;
            }
            let Some(ponder) = engine.ponder.take() else { continue };
            if !over && ply == ponder.ply && last == Some(ponder.expected) {
                engine.player.send(Command::PonderHit);
                let san = shakmaty::san::San::from_move(game.position_at(ponder.ply - 1), ponder.expected);
                seat.said = Some(format!("Ponder hit: it expected {san}"));
                engine.thinking = Some(Thinking { id: ponder.id, root: ponder.root, search: None });
            } else {
                engine.player.send(Command::Stop);
            }
        }
    }

    /// After `side`'s engine moved: it ponders on the reply it expects, if it ponders.
    fn start_ponder(&mut self, side: Color, expected: Option<Move>) {
        let Some(engine) = self.seats.get(side).engine.as_ref() else { return };
        let game = self.conductor.game();
        let Some(expected) =
            expected.filter(|&m| engine.ponders && !self.conductor.is_over() && game.position().is_legal(m))
        else {
            return;
        };
        let mut moves = game.moves().to_vec();
        moves.push(expected);
        let mut root = game.position().clone();
        root.play_unchecked(expected);
        let limits = SearchLimits { ponder: true, ..self.conductor.limits(side, engine.base.clone()) };
        let id = go(engine.player.as_ref(), &mut self.next_id, game.start().clone(), moves, limits);
        let ply = game.len() + 1;
        if let Some(engine) = self.seats.get_mut(side).engine.as_mut() {
            engine.ponder = Some(Ponder { id, expected, ply, root });
        }
    }

    /// Stops every search; their results will be ignored.
    pub fn stop(&mut self) {
        for seat in self.seats.iter_mut() {
            if let Some(engine) = seat.engine.as_mut()
                && (engine.thinking.take().is_some() | engine.ponder.take().is_some())
            {
                engine.player.send(Command::Stop);
            }
            seat.line = None;
            seat.best = None;
        }
    }

    /// The move the engine to move is considering, with its score, while it thinks.
    #[must_use]
    pub fn considered(&self) -> Option<(Move, String)> {
        let seat = self.seats.get(self.conductor.to_move());
        seat.engine.as_ref().filter(|e| e.thinking.is_some()).and(seat.best.clone())
    }

    /// Drains every engine's events: the one place where their results enter the game.
    pub fn drain(&mut self) -> Vec<News> {
        let mut news = Vec::new();
        for side in [Color::White, Color::Black] {
            while let Some(event) = self.seats.get(side).engine.as_ref().and_then(|e| e.player.try_recv()) {
                self.take(side, event, &mut news);
            }
        }
        news
    }

    fn take(&mut self, side: Color, event: kibitz_engine::Event, news: &mut Vec<News>) {
        use kibitz_engine::Event;
        let seat = self.seats.get_mut(side);
        let Some(engine) = seat.engine.as_mut() else { return };
        let current = |id: u64| engine.thinking.as_ref().is_some_and(|t| t.id == id);
        match event {
            Event::Info { id, info } if current(id) => {
                let Some(thinking) = engine.thinking.as_mut() else { return };
                seat.line = Some(format_line(&thinking.root, &info));
                if info.multipv <= 1 {
                    let score = info.score.white_pov(thinking.root.turn()).to_string();
                    seat.best = info.pv.first().map(|&m| (m, score));
                }
                if info.multipv <= 1 && info.bound.is_none() {
                    let depth = u8::try_from(info.depth).unwrap_or(u8::MAX);
                    thinking.search = Some((score_cp(info.score), depth));
                    let root = thinking.root.clone();
                    self.conductor.record_search(side, &root, &info);
                }
            }
            Event::Info { id, info } if engine.ponder.as_ref().is_some_and(|p| p.id == id) => {
                if let Some(ponder) = &engine.ponder {
                    seat.line = Some(format!("Pondering: {}", format_line(&ponder.root, &info)));
                }
            }
            Event::BookMove { id, choice } if current(id) => {
                if let Some(thinking) = engine.thinking.as_mut() {
                    seat.line = Some(format_book(&thinking.root, &choice));
                    thinking.search = None;
                }
            }
            Event::PostBook { id, check } if current(id) => {
                if let Some(thinking) = &engine.thinking {
                    let root = &thinking.root;
                    let explained = check.describe(|m| shakmaty::san::San::from_move(root, m).to_string());
                    seat.line = Some(match seat.line.take() {
                        Some(line) => format!("{line}\n{explained}"),
                        None => explained,
                    });
                }
            }
            Event::BestMove { id, best, ponder, .. } if current(id) => {
                let Some(thinking) = engine.thinking.take() else { return };
                seat.best = None;
                let ply = self.conductor.game().len();
                news.push(News::Searched { side, ply, search: thinking.search });
                let events = match best {
                    Some(m) => self.conductor.engine_move(side, m),
                    None => {
                        let failure = PlayerFailure {
                            engine: seat.name.clone(),
                            kind: FailureKind::Hung("it returned no move".into()),
                            last_lines: Vec::new(),
                        };
                        self.conductor.player_failed(side, failure)
                    }
                };
                news.extend(events.into_iter().map(News::Game));
                self.start_ponder(side, best.and(ponder));
            }
            Event::Ready { .. } => engine.ready = true,
            Event::OfferDraw => news.extend(self.conductor.offer_draw(side).into_iter().map(News::Game)),
            Event::Resign => {
                engine.thinking = None;
                news.extend(self.conductor.resign(side).into_iter().map(News::Game));
            }
            Event::Message(text) => seat.said = Some(text),
            Event::Failed(mut failure) => {
                engine.thinking = None;
                failure.engine = seat.name.clone();
                news.extend(self.conductor.player_failed(side, failure).into_iter().map(News::Game));
            }
            // Events of older searches, and the root move being searched (for UCI).
            _ => {}
        }
    }
}

/// Sends `player` the game's position and a search for play, with the next id, which it
/// returns.
fn go(player: &dyn Player, next_id: &mut u64, start: Chess, moves: Vec<Move>, limits: SearchLimits) -> u64 {
    let id = *next_id;
    *next_id += 1;
    player.send(Command::Position { start, moves });
    player.send(Command::Go { id, purpose: Purpose::Play, limits });
    id
}

/// "Book move d4, chosen from d4 45%, e4 35%, c4 20%", in SAN.
fn format_book(root: &Chess, choice: &Choice) -> String {
    let san = |m: Move| shakmaty::san::San::from_move(root, m).to_string();
    let candidates: Vec<String> =
        choice.playable().map(|c| format!("{} {:.0}%", san(c.mv), c.probability * 100.0)).collect();
    format!("Book move {}, chosen from {}", san(choice.mv), candidates.join(", "))
}

/// "+0.35 depth 9  1.2M nodes  850 kn/s" and the line in SAN, the score from White's side.
fn format_line(root: &Chess, info: &SearchInfo) -> String {
    let score = info.score.white_pov(root.turn());
    let mut pos = root.clone();
    let mut pv = Vec::new();
    let mut number = pos.fullmoves().get();
    for (i, &m) in info.pv.iter().take(12).enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        let prefix = match (pos.turn(), i) {
            (Color::White, _) => format!("{number}. "),
            (Color::Black, 0) => format!("{number}... "),
            _ => String::new(),
        };
        if pos.turn() == Color::Black {
            number += 1;
        }
        pv.push(format!("{prefix}{}", SanPlus::from_move_and_play_unchecked(&mut pos, m)));
    }
    format!(
        "{score}  depth {}  {} nodes  {} kn/s\n{}",
        info.depth,
        human_count(info.nodes),
        info.nps / 1000,
        pv.join(" ")
    )
}

fn human_count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}
