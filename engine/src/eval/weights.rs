//! Every weight of the classical evaluation terms, in one place, as middlegame/endgame pairs
//! in centipawns. Positive is good for the side that has the feature. The piece-square tables
//! are PeSTO's and live in [`super::tables`]; the piece values started as PeSTO's.
//!
//! The starting figures follow Fruit 2.1's published evaluation, scaled down where PeSTO's
//! tables already cover part of the idea (pawn advancement, centralisation). They are not
//! tuned for Kibitz yet.

use super::tapered::{Tapered, s};

/// Material: pawn, knight, bishop, rook, queen, king (always on the board, so worth nothing).
pub const PIECE_VALUE: [Tapered; 6] =
    [s(82, 94), s(337, 281), s(365, 297), s(477, 512), s(1025, 936), s(0, 0)];

/// The side to move's bonus for having the move.
pub const TEMPO: Tapered = s(15, 10);

// Mobility: per reachable square (not occupied by an own piece, not attacked by an enemy pawn)
// above or below a typical count, so that an average piece scores about zero.

/// Mobility per square of a knight, bishop, rook and queen.
pub const MOBILITY: [Tapered; 4] = [s(4, 4), s(5, 5), s(2, 4), s(1, 2)];
/// The mobility of a knight, bishop, rook and queen that scores zero.
pub const MOBILITY_BASE: [i32; 4] = [4, 6, 7, 13];

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

/// A passed pawn's bonus per square the enemy king is away from the square in front of it
/// (counting at most 5), by rank; a king far from a passer cannot stop it.
pub const PASSED_ENEMY_KING: [Tapered; 8] =
    [s(0, 0), s(0, 0), s(0, 0), s(0, 4), s(0, 12), s(0, 22), s(0, 32), s(0, 0)];
/// A passed pawn's bonus per square the own king is away from the square in front of it
/// (counting at most 5), by rank: negative, as an escort helps.
pub const PASSED_OWN_KING: [Tapered; 8] =
    [s(0, 0), s(0, 0), s(0, 0), s(0, -2), s(0, -5), s(0, -8), s(0, -12), s(0, 0)];

// Threats.

/// Each enemy knight, bishop, rook and queen attacked by an own pawn.
pub const THREAT_BY_PAWN: [Tapered; 4] = [s(55, 35), s(55, 35), s(70, 45), s(70, 45)];
/// Each enemy rook and queen attacked by an own knight or bishop.
pub const THREAT_BY_MINOR: [Tapered; 2] = [s(40, 40), s(40, 40)];
/// Each enemy queen attacked by an own rook.
pub const THREAT_BY_ROOK: Tapered = s(40, 40);
/// Each enemy piece (not a pawn or the king) attacked and not defended.
pub const HANGING: Tapered = s(40, 25);

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

// King danger: a sum of danger units whose square becomes the middlegame penalty (so that
// attacks that come together count far more than their parts) and whose fraction becomes the
// endgame penalty. The figures follow Stockfish 10's classical evaluation. Being nonlinear,
// king danger is not part of the tuner's linear model (its share is fixed there).

/// Danger units of each enemy piece attacking the king zone, knight to queen, times the number
/// of such attackers.
pub const KING_ATTACKER_WEIGHT: [i32; 4] = [77, 55, 44, 10];
/// Danger units per attack of an enemy piece on a square of the king zone.
pub const KING_ZONE_ATTACK: i32 = 69;
/// Danger units per square of the king zone attacked by the enemy and defended by no own pawn
/// or piece (the king aside).
pub const KING_WEAK_SQUARE: i32 = 185;
/// Danger units when a knight, bishop, rook and queen can give a safe check.
pub const KING_SAFE_CHECK: [i32; 4] = [790, 635, 1080, 780];
/// Danger units taken off when the enemy has no queen.
pub const KING_NO_QUEEN: i32 = 873;
/// Danger units always taken off.
pub const KING_DANGER_OFFSET: i32 = 30;
/// The middlegame penalty is the square of the danger over this.
pub const KING_DANGER_MG_DIVISOR: i32 = 6_400;
/// The endgame penalty is the danger over this.
pub const KING_DANGER_EG_DIVISOR: i32 = 25;
