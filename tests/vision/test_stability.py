"""The stability filter: a reading counts only after k equal frames with no ``?``."""

from __future__ import annotations

import pytest

from vision.reader import no_reading
from vision.stability import StabilityFilter

A = ("RG", "B.")
B = ("RG", "BY")


def test_a_reading_counts_after_k_equal_frames():
    f = StabilityFilter(3)
    assert [f.push(A) for _ in range(4)] == [None, None, A, A]
    assert f.stable == A and f.run == 4


def test_a_change_starts_the_count_again():
    f = StabilityFilter(2)
    assert [f.push(x) for x in (A, B, A, A)] == [None, None, None, A]


def test_an_unsure_cell_or_no_grid_breaks_the_run():
    f = StabilityFilter(2)
    assert f.push(A) is None
    assert f.push(("R?", "B.")) is None
    assert f.push(A) is None
    assert f.push(A) == A
    assert f.push(None) is None
    assert f.push(no_reading(2, 2, "hand")) is None
    assert f.push(A) is None
    assert f.stable == A  # the last stable reading is remembered


def test_readings_with_cells_are_accepted_directly():
    class Reading:
        cells = A

    f = StabilityFilter(1)
    assert f.push(Reading()) == A


def test_reset_forgets_the_run_only():
    f = StabilityFilter(2)
    f.push(A)
    f.push(A)
    f.reset()
    assert f.run == 0 and f.stable == A
    assert f.push(A) is None


def test_k_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        StabilityFilter(0)


def test_a_card_read_unsure_in_some_frames_keeps_the_run():
    # frames 37-40 of the dev game under a bright warm camera: one card flickered to "?",
    # and the shift it showed was never seen held
    f = StabilityFilter(3, unsure=2)
    flicker = ("RG", "B?")
    assert [f.push(x) for x in (flicker, B, flicker, B)] == [None, None, None, B]
    assert f.run == 4  # read so in most of the last k frames: the card it is


def test_one_frame_reading_a_card_the_others_cannot_read_is_no_reading():
    f = StabilityFilter(3, unsure=2)
    unread = ("RG", "B?")
    pushed = [f.push(x) for x in (unread, unread, unread, B, unread, unread, unread)]
    assert pushed == [None, None, unread, None, None, None, unread]


def test_a_card_a_hand_just_left_is_not_taken_for_one_the_camera_cannot_read():
    # a generated game's dealer: two frames with the hand over a card, then the card
    f = StabilityFilter(3, unsure=2)
    covered = ("RG", "B?")
    assert [f.push(x) for x in (covered, covered, B, B)] == [None, None, None, B]


def test_a_card_a_hand_left_that_then_flickers_counts_once_most_recent_frames_read_it():
    # the dev game under crosstalk then a brighter exposure: a refill's last card, a hand
    # over it for two frames, then read and "?" in turn; the cascade it made must be seen
    f = StabilityFilter(3, unsure=2)
    flicker = ("RG", "B?")
    assert [f.push(x) for x in (flicker, flicker, B, flicker, B)] == [None] * 4 + [B]


def test_a_card_that_turned_unreadable_is_read_unsure():
    # the dev game under a darker tone curve: a refilled card read once, then "?"
    f = StabilityFilter(3, unsure=2)
    turned = ("RG", "B?")
    assert [f.push(x) for x in (B, turned, turned, turned)] == [None, None, None, turned]


def test_frames_that_read_a_cell_as_two_cards_break_the_run():
    f = StabilityFilter(2, unsure=2)
    assert [f.push(x) for x in (A, B, B)] == [None, None, B]


def test_a_card_laid_unread_in_an_empty_cell_is_read_unsure():
    # a refilled card the camera cannot read: the empty cell must not hold it off
    f = StabilityFilter(3, unsure=2)
    unread = ("RG", "B?")
    pushed = [f.push(x) for x in [A] * 20 + [unread] * 4]
    assert pushed[19:] == [A, A, A, A, unread]  # four frames, however long it lay empty


def test_a_hand_leaving_an_emptied_cell_shows_it_empty():
    f = StabilityFilter(3, unsure=2)
    covered = ("RG", "B?")
    assert [f.push(x) for x in (covered, A, A)] == [None, None, A]


def test_a_hand_moving_over_a_shifted_row_stitches_no_grid():
    # row RRGRG shifted r1< under a hand: two frames show the cells it left, one the cells
    # it reached; their halves together (RGRRG) never lay on the table
    f = StabilityFilter(3, unsure=2)
    assert [f.push((x,)) for x in ("R??RG", "R??RG", "RGR??")] == [None, None, None]
    # the run starts again where the hand moved; the cards it hid count once seen enough
    assert [f.push(("RGRGR",)) for _ in range(2)] == [None, ("RGRGR",)]


def test_a_cell_unsure_in_every_frame_stays_unsure():
    f = StabilityFilter(2, unsure=2)
    assert [f.push(("RG", "B?")) for _ in range(2)] == [None, ("RG", "B?")]


class _Frame:
    def __init__(self, cells, guesses):
        self.cells, self.guesses = cells, guesses


def test_a_card_laid_unread_is_guessed_as_the_frames_mostly_guessed_it_not_as_the_empty_cell():
    # an empty cell, then a card laid there the camera cannot read: two frames guess it an
    # amber, one a ruby, one could not guess (a finger on it); the emptiness before is no guess
    f = StabilityFilter(3, unsure=2)
    for _ in range(3):
        f.push(A)
    laid = ("RG", "B?")
    frames = [("RG", "BO"), ("RG", "B?"), ("RG", "BR"), ("RG", "BO")]
    held = [f.push(_Frame(laid, g)) for g in frames]
    assert held[-1] == laid and f.guesses(laid) == ("RG", "BO")


def test_cards_seen_whose_colour_alone_is_in_doubt_are_no_hand_however_many():
    # their outlines show (the reading's guesses name them): a camera whose colours moved
    seen = _Frame(("???GY", "CBVPR"), ("PPOGY", "CBVPR"))
    f = StabilityFilter(2, unsure=2)
    assert [f.push(seen) for _ in range(2)] == [None, ("???GY", "CBVPR")]
    # no card seen in three cells: a hand over them
    hidden = _Frame(("???GY", "CBVPR"), ("???GY", "CBVPR"))
    g = StabilityFilter(2, unsure=2)
    assert [g.push(hidden) for _ in range(3)] == [None, None, None]


def test_a_hand_moving_counts_the_cells_it_hides_in_two_frames_together_not_the_cards_seen():
    # two frames hide three cells between them, one of which shows its card's outline
    seen = [_Frame(("?RGRG",), ("?RGRG",)), _Frame(("R??RG",), ("RP?RG",))]
    f = StabilityFilter(3, unsure=2)
    for x in seen:
        f.push(x)
    assert f.run == 2  # two cells hidden in the two frames: the run holds
    hidden = [_Frame(("?RGRG",), ("?RGRG",)), _Frame(("R??RG",), ("R??RG",))]
    g = StabilityFilter(3, unsure=2)
    for x in hidden:
        g.push(x)
    assert g.run == 1  # three: the hand moved over the grid, the run starts again


def test_a_card_read_in_some_frames_and_guessed_the_same_in_the_others_counts():
    # its outline seen in every frame, its colour named in a few: the frames agree on it
    frames = [_Frame(("RG",), ("RG",))] + [_Frame(("R?",), ("RG",))] * 5
    f = StabilityFilter(3, unsure=2)
    assert [f.push(x) for x in frames][-1] == ("RG",)
    # guessed as another card, the frames that read it ? say nothing for it
    frames = [_Frame(("RG",), ("RG",))] + [_Frame(("R?",), ("RB",))] * 5
    g = StabilityFilter(3, unsure=2)
    assert [g.push(x) for x in frames][-1] == ("R?",)


def test_a_card_never_named_whose_outline_flickers_does_not_hold_the_grid_back():
    guesses = ["RG", "R?", "RG", "RG", "R?", "RG", "RG", "R?"]
    f = StabilityFilter(3, unsure=2)
    held = [f.push(_Frame(("R?",), (g,))) for g in guesses]
    assert held[2:] == [("R?",)] * 6
