"""The games of `kibitz match` PGN files, for the scripts beside it (pgn_elo.py,
paired_score.py, clock_use.py, first_sight.py): `games(path)` reads one file, or exits with a
one-line message naming it, and returns each game as its tags and its whole text;
`white_score(tags)` is White's points from the Result tag (None for an unfinished game).
"""
import re
import sys

_TAG = re.compile(r'\[(\w+) "([^"]*)"\]')
_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def games(path):
    """[(tags, text)] of each game of the file at `path`, in file order."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    except UnicodeDecodeError:
        sys.exit(f"{path}: not a UTF-8 text file")
    return [(dict(_TAG.findall(game)), game) for game in text.split("[Event ")[1:]]


def white_score(tags):
    """White's points of a finished game, None for any other Result."""
    return _POINTS.get(tags.get("Result"))
