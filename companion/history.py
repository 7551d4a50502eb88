"""Every player's history over all stored games (``companion history``, issue 15).

Built from each game's story (``companion.story``), so from the game database alone.
Players are told apart by name. Recordings replayed into the database (``companion replay
--store``) are no one's games and are left out, as in the past-games list.

What each figure counts:

- ``games``: stored games the player is in, finished or not; ``wins``: finished games in
  which they are among the winners (N13, P9, D5, D6; a shared victory counts for each).
- ``turns``, ``points``, ``points_per_turn``: Nizam turns (draws too) and the points
  they scored; ``best_turn``: the Nizam turn that scored the most (the first of equals).
- ``longest_cascade``: the most scoring rounds after the first in one turn (N10), Nizam
  and Pearl of the East alike.
- ``pearl_games``, ``tasks``, ``tasks_per_game``: Pearl of the East games and the task
  cards the player completed in them (P6).
- ``calls``, ``best_calls``, ``best_call_share``: The Desert Sands calls the player made
  and how many named the call that was best at that moment (the solved table's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .store import GameStore
from .story import BestCalls, GameStory, game_story, players_games


@dataclass
class PlayerHistory:
    name: str
    games: int = 0
    wins: int = 0
    turns: int = 0
    points: int = 0
    best_turn: dict[str, int] | None = None  # {"points", "game", "turn"}
    longest_cascade: int = 0
    pearl_games: int = 0
    tasks: int = 0
    calls: int = 0
    best_calls: int = 0
    game_ids: list[int] = field(default_factory=list)

    @property
    def points_per_turn(self) -> float | None:
        return round(self.points / self.turns, 2) if self.turns else None

    @property
    def tasks_per_game(self) -> float | None:
        return round(self.tasks / self.pearl_games, 2) if self.pearl_games else None

    @property
    def best_call_share(self) -> float | None:
        return round(self.best_calls / self.calls, 3) if self.calls else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "games": self.games, "wins": self.wins, "turns": self.turns,
            "points": self.points, "points_per_turn": self.points_per_turn,
            "best_turn": self.best_turn, "longest_cascade": self.longest_cascade,
            "pearl_games": self.pearl_games, "tasks": self.tasks,
            "tasks_per_game": self.tasks_per_game, "calls": self.calls,
            "best_calls": self.best_calls, "best_call_share": self.best_call_share,
        }


COLUMNS = ("name", "games", "wins", "turns", "points", "points_per_turn", "best_turn",
           "best_turn_game", "longest_cascade", "pearl_games", "tasks", "tasks_per_game",
           "calls", "best_calls", "best_call_share")


def csv_row(player: PlayerHistory) -> list[Any]:
    data = player.to_json()
    best = data.pop("best_turn") or {}
    data["best_turn"] = best.get("points", "")
    data["best_turn_game"] = best.get("game", "")
    return ["" if data[c] is None else data[c] for c in COLUMNS]


def stories(store: GameStore, best_calls: BestCalls | None = None) -> list[GameStory]:
    """The story of every stored game that is the players' own, oldest first."""
    return [game_story(store, g.id, best_calls) for g in reversed(players_games(store))]


def history(all_stories: Iterable[GameStory]) -> list[PlayerHistory]:
    """Per player, in the order they first played."""
    players: dict[str, PlayerHistory] = {}
    for story in all_stories:
        for index, name in enumerate(story.names):
            p = players.setdefault(name, PlayerHistory(name))
            p.games += 1
            p.game_ids.append(story.game_id)
            p.wins += story.ended and index in story.winners
            if story.game == "pearl":
                p.pearl_games += 1
        for turn in story.turns:
            p = players[story.names[turn.player]]
            p.longest_cascade = max(p.longest_cascade, turn.cascade)
            if story.game == "pearl":
                p.tasks += len(turn.tasks)
                continue
            p.turns += 1
            p.points += turn.points
            if turn.points and (p.best_turn is None or turn.points > p.best_turn["points"]):
                p.best_turn = {"points": turn.points, "game": story.game_id,
                               "turn": turn.number}
        for call in story.calls:
            p = players[story.names[call.player]]
            p.calls += 1
            p.best_calls += call.call == call.best
    return list(players.values())
