"""Folds of the game under other names of the cards laid unread, kept and gone on from
(``session.kept``, ``table._refold``, ``TableSession.fold_ahead``): the same states as a
fold from each card's laying, whatever happened since (more moves, an Undo, a card named
otherwise), and none folded again when the players' next move needs a name (N9), for a card
laid unread or a card the camera misread."""

import math
import random

import pytest

from companion.errors import CompanionError
from companion.rules.game import Game, RuleError
from companion.rules.grid import GEMS
from companion.rules.simulate import greedy, simulate
from companion.session import misread, nizam, table, unread
from companion.session.kept import FoldSoFar, KeptFolds
from companion.session.nizam import TableSession
from companion.store import GameStore

from .test_unread_game import UnreadCamera, play


class _Part:
    def __init__(self, played, turns):
        self.states, self.reports = played.states[: turns + 1], played.reports[:turns]


def _played(folder, ahead=False):
    """Seed 1's game to 60 % of its turns, two cards of the opening layout read ``?`` all
    along (two that lie on the grid then); ``ahead``: folded ahead after each reading and
    tap, as the table watcher does between frames."""
    game = Game("classic", 2)
    played = simulate(game, random.Random(1), greedy, max_turns=400)
    part = _Part(played, int(len(played.reports) * 0.6))
    seen = TableSession.new(GameStore(folder / "seen.sqlite"), game, ["A", "B"])
    play(part, seen, UnreadCamera(seen, ()))
    opening = [card for card in seen.state.origin if 0 <= card < 25][:2]
    s = TableSession.new(GameStore(folder / "game.sqlite"), game, ["A", "B"])
    if ahead:
        for name in ("on_reading", "tap"):
            setattr(s, name, _then_ahead(s, getattr(s, name)))
    play(part, s, UnreadCamera(s, opening))
    assert len(unread.in_play(s.state)) == 2
    return s


def _then_ahead(s, act):
    def acted(*args):
        act(*args)
        s.fold_ahead()
    return acted


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    return _played(tmp_path_factory.mktemp("kept"))


def _fold(t, card, letter):
    try:
        return table._refold(t, card, letter, False)
    except CompanionError as err:
        return f"{err.__class__.__name__}: {err}"


def _fresh(t, card, letter):
    table._REFOLDS.clear()
    table._folded.cache_clear()
    return _fold(t, card, letter)


def test_N9_a_name_tried_again_later_folds_as_from_the_cards_laying(session):
    """Each other name of each card laid unread, at the last state and at states an Undo
    goes back to (shorter logs): the fold gone on from a kept one is the fold from the
    card's laying, states and refusals alike."""
    t = session.state
    names = [(card, x) for card in unread.in_play(t) for x in GEMS if x != t.cards[card]]
    for state in (t, session.history[-2], session.history[-9], t):
        kept = {(card, x): _fold(state, card, x) for card, x in names}
        fresh = {(card, x): _fresh(state, card, x) for card, x in names}
        assert kept == fresh
        assert any(isinstance(v, table.TableState) for v in kept.values())


def test_N9_a_name_tried_after_the_other_cards_provisional_name_changed(session):
    """Names tried of card a and of both cards together, then card b named otherwise as
    the likeliest (its laying renamed in the log): what goes on from the kept folds is the
    fold from the laying."""
    t = session.state
    a, b = unread.in_play(t)
    for x in GEMS:
        _fold(t, a, x)
    other = next(x for x in GEMS if x != t.cards[b] and not isinstance(
        _fold(t, b, x), str))
    renamed = table.apply(t, table.Settled(b, other, "likeliest"))
    assert renamed.cards[b] == other and b in renamed.provisional
    for x in GEMS:
        if x != renamed.cards[a]:
            assert _fold(renamed, a, x) == _fresh(renamed, a, x)


@pytest.mark.parametrize("seconds", [math.inf, 0.0])
def test_N9_the_search_after_a_move_needs_no_fold_again(tmp_path, monkeypatch, seconds):
    """Each reading the session takes folds the game ahead under every naming a search
    would try (``fold_ahead``), for as long as ``FOLD_AHEAD_SECONDS`` allows: the search
    after a reading it cannot take folds no event again (and with no time for it, it
    folds them itself)."""
    table._REFOLDS.clear()
    monkeypatch.setattr(nizam, "FOLD_AHEAD_SECONDS", seconds)
    s = _played(tmp_path, ahead=True)
    folded = []
    real = table._refolded
    monkeypatch.setattr(table, "_refolded", lambda *a: folded.append(a) or real(*a))
    t = s.state
    order = unread.likeliest_in(t, unread.allowed_letters(t.game, ""))
    assert unread.namings(t, order, lambda _: None) == []  # each alone, then both together
    if seconds == 0:
        assert len(folded) > 100  # each naming from its card's laying
        return
    assert folded == []
    # and each card on the grid under each other gem, as a card the camera misread
    misread.renamings(t, [c for c in t.origin if c >= 0 and c not in t.provisional],
                      lambda alt, card, was: None)
    assert folded == []
    unread.namings(table.apply(t, table.Draw()), order, lambda _: None)
    assert 0 < len(folded) <= unread.SETTLE_BUDGET  # one event more: folded once each


def test_kept_folds_go_on_from_the_longest_of_the_same_log():
    kept = KeptFolds()
    kept.keep("k", FoldSoFar(("a", "b"), 2))
    kept.keep("k", FoldSoFar(("a", "b", "c"), 3))
    kept.keep("k", FoldSoFar(("a", "x"), -2))  # another log: another card named first
    assert kept.longest("k", ("a", "b", "c", "d")).state == 3
    assert kept.longest("k", ("a", "b", "e")).state == 2  # an Undo went back, then on
    assert kept.longest("k", ("a", "x", "y")).state == -2
    assert kept.longest("k", ("b",)) is None
    assert kept.longest("other", ("a", "b")) is None


def test_kept_folds_keep_the_refusal_and_only_the_fold_before_the_last():
    kept = KeptFolds()
    try:
        raise RuleError("N9", "7 cards go into the empty cells, 6 were read")
    except RuleError as err:
        kept.keep("k", FoldSoFar(("a", "b"), 1, error=err))
    found = kept.longest("k", ("a", "b", "c"))
    again = found.refusal()
    assert (type(again), str(again), again.rule) == (
        RuleError, "N9: 7 cards go into the empty cells, 6 were read", "N9")
    # what is kept holds no frames (they would keep a session alive); each raise its own
    assert found.error.__traceback__ is None and again is not found.refusal()
    for n in range(1, 6):
        kept.keep("j", FoldSoFar(tuple("abcdef"[:n]), n))
    found = [kept.longest("j", tuple("abcdef"[:n])) for n in range(1, 6)]
    assert [None if f is None else f.state for f in found] == [None, None, None, 4, 5]


def test_kept_folds_are_bounded_least_recently_used_first():
    kept = KeptFolds(at_most=4)
    for key in "abcde":
        kept.keep(key, FoldSoFar((key,), key))
    assert kept.longest("a", ("a",)) is None
    assert kept.longest("e", ("e",)).state == "e"
    kept.longest("b", ("b",))  # used: kept over c
    kept.keep("f", FoldSoFar(("f",), "f"))
    assert kept.longest("b", ("b",)) is not None and kept.longest("c", ("c",)) is None


def test_N9_folding_ahead_for_misreads_goes_on_where_it_stopped(session, monkeypatch):
    """Out of time, folding ahead for misreads says where it stopped; from there, the next
    time folds every card on the grid in turn (a slow machine folds them all, in turns)."""
    t = session.state
    assert misread.fold_renamings(t, until=-math.inf, first=3) == 3
    folded = []
    monkeypatch.setattr(misread, "misnamed", lambda t, card, letter: folded.append(card))
    assert misread.fold_renamings(t, first=3) is None
    cards = [c for c in dict.fromkeys(t.origin) if c >= 0 and c not in t.provisional
             and c not in t.tapped and t.cards[c] in GEMS]
    assert sorted(folded) == sorted(cards * 7)
    grid_order = list(dict.fromkeys(c for c in t.origin if c >= 0))
    assert grid_order.index(folded[0]) >= 3
