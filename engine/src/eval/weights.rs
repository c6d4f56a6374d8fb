//! Every weight of the classical evaluation terms, in one place, as middlegame/endgame pairs
//! in centipawns. Positive is good for the side that has the feature. The piece values and
//! piece-square tables are PeSTO's and live in [`super::tables`].
//!
//! The starting figures follow Fruit 2.1's published evaluation, scaled down where PeSTO's
//! tables already cover part of the idea (pawn advancement, centralisation). They are not
//! tuned for Kibitz yet.

use super::tapered::{Tapered, s};

// Mobility: per reachable square (not occupied by an own piece, not attacked by an enemy pawn)
// above or below a typical count, so that an average piece scores about zero.

/// Knight mobility per square.
pub const KNIGHT_MOBILITY: Tapered = s(4, 4);
/// The knight mobility that scores zero.
pub const KNIGHT_MOBILITY_BASE: i32 = 4;
/// Bishop mobility per square.
pub const BISHOP_MOBILITY: Tapered = s(5, 5);
/// The bishop mobility that scores zero.
pub const BISHOP_MOBILITY_BASE: i32 = 6;
/// Rook mobility per square.
pub const ROOK_MOBILITY: Tapered = s(2, 4);
/// The rook mobility that scores zero.
pub const ROOK_MOBILITY_BASE: i32 = 7;
/// Queen mobility per square.
pub const QUEEN_MOBILITY: Tapered = s(1, 2);
/// The queen mobility that scores zero.
pub const QUEEN_MOBILITY_BASE: i32 = 13;

// Pawn structure.

/// Each pawn beyond the first on a file.
pub const DOUBLED_PAWN: Tapered = s(-10, -20);
/// Each pawn with no own pawn on a neighbouring file.
pub const ISOLATED_PAWN: Tapered = s(-10, -15);
/// A passed pawn, by rank from its owner's side (index 0 is the first rank).
pub const PASSED_PAWN: [Tapered; 8] =
    [s(0, 0), s(0, 5), s(5, 10), s(10, 20), s(20, 35), s(35, 60), s(60, 100), s(0, 0)];
/// Extra for a passed pawn whose squares up to promotion are all empty, by rank.
pub const PASSED_FREE_PATH: [Tapered; 8] =
    [s(0, 0), s(0, 0), s(0, 2), s(0, 5), s(5, 10), s(10, 20), s(15, 35), s(0, 0)];

// Pieces.

/// Two bishops on squares of different colours.
pub const BISHOP_PAIR: Tapered = s(30, 50);
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: Tapered = s(20, 10);
/// A rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: Tapered = s(10, 5);

// King safety.

/// Each own pawn directly in front of a castled king (its file or a neighbouring one).
pub const PAWN_SHIELD_CLOSE: Tapered = s(12, 0);
/// Each own pawn two ranks in front of a castled king.
pub const PAWN_SHIELD_FAR: Tapered = s(6, 0);
/// How much an enemy piece attacking the king zone weighs, by role from pawn to king.
pub const KING_ATTACK_UNITS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The penalty per attack unit, before scaling by the number of attackers.
pub const KING_ATTACK: Tapered = s(-20, 0);
/// Scale of [`KING_ATTACK`] in 256ths by the number of attacking pieces: one alone is harmless,
/// several together are dangerous.
pub const KING_ATTACKERS_SCALE: [i32; 8] = [0, 0, 128, 192, 224, 240, 248, 252];
