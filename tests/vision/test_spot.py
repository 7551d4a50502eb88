"""The stone spot (The Desert Sands, D2: the drawn stone is read by the camera): cutting the
spot and its table neighbours, reading the stone under changing light, counting each stone
once, and the spot's calibration file."""

import json

import numpy as np
import pytest

from calibration.palette import PaletteError
from calibration.spot import SpotError, StoneSpot, saved_spot
from tools.synthetic import kelvin_gains
from vision.spot import StoneWatcher, learn_stone_palette, read_stone, spot_patches

SIZE = (320, 240)
SPOT = StoneSpot(((128.0, 90.0), (186.0, 93.0), (190.0, 150.0), (126.0, 147.0)), SIZE)
STONES = {"r": (190, 40, 45), "y": (235, 195, 45), "g": (45, 150, 75), "l": (175, 135, 205)}
"""sRGB of the four stones (the bag letters of RULES.md D1)."""
CLOTH = (125, 105, 85)
SKIN = (224, 172, 140)


def _linear(srgb):
    x = np.asarray(srgb, float) / 255
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)


def _srgb8(linear):
    x = np.clip(linear, 0, 1)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055) * 255


def stone_frame(rng, stone=None, kelvin=5000.0, exposure=1.0, hand=False, beside=None,
                size=SIZE, spot=SPOT):
    """A BGR frame of woven cloth, seen under a light of ``kelvin`` (the camera balanced for
    5000 K) and ``exposure`` with a brightness gradient across it: a round, shaded stone
    with a glint lies a little off the spot's centre (``stone`` a letter of STONES, None for
    an empty spot), ``beside`` another stone next to the spot, ``hand`` a hand over it."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(float)
    img = np.broadcast_to(_linear(CLOTH), (h, w, 3)).copy()
    img *= (1 + 0.07 * np.sin(xx / 1.7 + rng.uniform(0, 6)) * np.cos(yy / 2.3))[..., None]
    corners = spot.corners(size)
    side = float(np.linalg.norm(corners[1] - corners[0]))
    centre = corners.mean(axis=0)
    placed = []
    if stone is not None:
        placed.append((stone, centre + rng.uniform(-0.07, 0.07, 2) * side))
    if beside is not None:
        placed.append((beside, centre + np.array([side * 1.05, side * 0.1])))
    for letter, (cx, cy) in placed:
        r = side * rng.uniform(0.22, 0.25)
        d = np.hypot(xx - cx, yy - cy)
        inside = d < r
        img[inside] = _linear(STONES[letter]) * (1 - 0.35 * (d[inside] / r) ** 2)[:, None]
        glint = np.hypot(xx - cx + 0.35 * r, yy - cy + 0.35 * r) < 0.15 * r
        img[glint] = 0.3 * img[glint] + 0.7
    if hand:
        cx, cy = centre + np.array([side * 0.3, side * 0.2])
        arm = (np.hypot((xx - cx) / (0.8 * side), (yy - cy) / (0.55 * side)) < 1) | (
            (xx > cx) & (np.abs(yy - cy) < 0.35 * side))
        img[arm] = _linear(SKIN) * (0.9 + 0.1 * np.sin(yy[arm] / 3))[:, None]
    rgb_gain = kelvin_gains(kelvin)[::-1]
    gradient = 1 + 0.15 * (xx / w - 0.5) - 0.1 * (yy / h - 0.5)
    img = img * rgb_gain * exposure * gradient[..., None]
    img = _srgb8(img) + rng.normal(0, 2.5, img.shape)
    return np.ascontiguousarray(np.clip(np.rint(img), 0, 255).astype(np.uint8)[..., ::-1])


def calibration_frames(rng, per_stone=3):
    """Frames for the stones' palette: each stone a few times, and the empty spot."""
    return [(stone_frame(rng, None if s == "." else s), s) for s in "rygl." for _ in
            range(per_stone)]


@pytest.fixture(scope="module")
def palette():
    return learn_stone_palette(calibration_frames(np.random.default_rng(7)), SPOT)


LIGHTS = [(5000, 1.0), (4000, 1.0), (6500, 1.0), (5000, 0.6), (5000, 1.2), (4300, 0.75),
          (6000, 1.25), (5000, 0.4)]
HARSH = [(2700, 1.0), (5000, 1.8)]
"""Light so warm, or so bright that the yellow stone clips: the stone may be missed (unsure,
or taken for the table: the players then tap it in), never read as another colour."""


@pytest.mark.parametrize("kelvin, exposure", LIGHTS)
def test_D2_each_stone_is_read_under_a_change_of_light(palette, kelvin, exposure):
    rng = np.random.default_rng(int(kelvin * exposure))
    for stone in "rygl":
        for _ in range(2):
            label, confidence = read_stone(stone_frame(rng, stone, kelvin, exposure), SPOT,
                                           palette)
            assert (label, stone) == (stone, stone) and confidence >= palette.min_confidence


@pytest.mark.parametrize("kelvin, exposure", HARSH)
def test_D2_harsh_light_never_reads_another_colour(palette, kelvin, exposure):
    rng = np.random.default_rng(2)
    for stone in "rygl":
        label, confidence = read_stone(stone_frame(rng, stone, kelvin, exposure), SPOT, palette)
        assert label in (stone, "?", "."), (stone, label, confidence)


@pytest.mark.parametrize("kelvin, exposure", LIGHTS[:4])
def test_D2_the_empty_spot_reads_empty(palette, kelvin, exposure):
    rng = np.random.default_rng(3)
    assert read_stone(stone_frame(rng, None, kelvin, exposure), SPOT, palette)[0] == "."


def test_D2_a_hand_over_the_spot_is_no_stone(palette):
    rng = np.random.default_rng(5)
    for stone in (None, "g", "l"):
        label, _ = read_stone(stone_frame(rng, stone, hand=True), SPOT, palette)
        assert label in ".?" or label == stone, (stone, label)


def test_D2_a_stone_set_aside_next_to_the_spot_does_not_change_the_reading(palette):
    rng = np.random.default_rng(11)
    assert read_stone(stone_frame(rng, None, beside="r"), SPOT, palette)[0] == "."
    assert read_stone(stone_frame(rng, "y", beside="l"), SPOT, palette)[0] == "y"


def test_D2_a_scaled_camera_stream_reads_the_same_spot(palette):
    rng = np.random.default_rng(13)
    big = (640, 480)
    scaled = StoneSpot(tuple((2 * x, 2 * y) for x, y in SPOT.quad), big)
    frame = stone_frame(rng, "l", size=big, spot=scaled)
    assert read_stone(frame, SPOT, palette)[0] == "l"


def test_spot_patches_cut_the_spot_first_then_its_neighbours_in_the_frame():
    rng = np.random.default_rng(1)
    frame = stone_frame(rng, "r")
    patches = spot_patches(frame, SPOT)
    assert patches.shape == (5, 48, 48, 3)
    centre = patches[0, 20:28, 20:28].reshape(-1, 3).mean(axis=0)
    assert centre[2] > 2 * centre[1]  # red stone in the middle of the spot (BGR)
    corner = StoneSpot.around((25, 120), 40, SIZE)  # its left neighbour is off the frame
    assert spot_patches(frame, corner).shape[0] == 4
    with pytest.raises(SpotError, match="outside the 320x240 frame"):
        spot_patches(frame, StoneSpot.around((310, 120), 40, SIZE))


def test_learning_needs_one_letter_per_stone():
    frame = stone_frame(np.random.default_rng(1), "r")
    with pytest.raises(PaletteError, match="one letter"):
        learn_stone_palette([(frame, "red")], SPOT)
    with pytest.raises(PaletteError):
        learn_stone_palette([], SPOT)


# -- counting each stone once --------------------------------------------------------------


def test_D2_a_stone_counts_once_after_k_frames_and_only_after_an_empty_spot():
    w = StoneWatcher(3)
    assert [w.push(x) for x in "ggggg"] == [None] * 5  # lying there at start: not a draw
    assert [w.push(x) for x in "..."] == [None] * 3 and w.armed
    assert [w.push(x) for x in "rr?rrr"] == [None] * 5 + ["r"]
    assert [w.push(x) for x in "rrrr"] == [None] * 4  # still the same stone
    assert [w.push(x) for x in "..r..."] == [None] * 6 and w.armed  # empty needs k in a row
    assert [w.push((x, 0.9)) for x in "lll"] == [None, None, "l"]
    assert [w.push(x) for x in (None, ".", ".", ".", "y", "y", "y")][-1] == "y"


def test_D2_a_swap_without_an_empty_spot_is_not_a_new_draw():
    w = StoneWatcher(2)
    assert [w.push(x) for x in "..gg??ll"] == [None, None, None, "g", None, None, None, None]


def test_watcher_needs_at_least_one_frame():
    assert StoneWatcher(1).k == 1
    with pytest.raises(ValueError, match="at least 1 frame"):
        StoneWatcher(0)


def test_D2_frames_of_whole_draws_give_each_stone_once(palette):
    """Empty spot, a hand lays the stone, the stone lies still, the hand takes it away."""
    rng = np.random.default_rng(17)
    w = StoneWatcher(3)
    counted = []
    for stone in "gl":
        frames = ([stone_frame(rng, None)] * 3 + [stone_frame(rng, stone, hand=True)]
                  + [stone_frame(rng, stone, 5200, 0.95) for _ in range(4)]
                  + [stone_frame(rng, None, hand=True)])
        for frame in frames:
            got = w.push(read_stone(frame, SPOT, palette))
            if got:
                counted.append(got)
    assert counted == ["g", "l"]


# -- the spot itself ------------------------------------------------------------------------


def test_spot_file_round_trips_and_is_written_whole(tmp_path):
    path = tmp_path / "cfg" / "stone-spot.json"
    SPOT.save(path)
    assert StoneSpot.load(path) == SPOT == saved_spot(path)
    assert eval(repr(SPOT)) == SPOT
    assert [p.name for p in path.parent.iterdir()] == ["stone-spot.json"]
    assert json.loads(path.read_text())["format"] == "nizam-stone-spot"


@pytest.mark.parametrize("text, match", [
    ("{", "not valid JSON"),
    ('{"format": "nizam-palette"}', "not a stone spot"),
    ('{"format": "nizam-stone-spot", "version": 9, "quad": []}', "version 9"),
    ('{"format": "nizam-stone-spot", "version": 1, "quad": [[0, 0], [1, 0]]}', "four"),
])
def test_a_damaged_spot_file_is_one_clear_error(tmp_path, text, match):
    path = tmp_path / "spot.json"
    path.write_text(text)
    with pytest.raises(SpotError, match=match) as err:
        StoneSpot.load(path)
    assert "\n" not in str(err.value)
    with pytest.raises(SpotError, match="does not exist"):
        StoneSpot.load(tmp_path / "none.json")


@pytest.mark.parametrize("quad, match", [
    (((0, 0), (40, 0), (0, 40), (40, 40)), "convex"),  # crossed
    (((0, 0), (0, 40), (40, 40), (40, 0)), "convex"),  # counter-clockwise on screen
    (((0, 0), (5, 0), (5, 5), (0, 5)), "too small"),
    (((0, 0), (40, 0), (40, float("nan")), (0, 40)), "finite"),
])
def test_a_spot_must_be_a_convex_quad_in_order(quad, match):
    with pytest.raises(SpotError, match=match):
        StoneSpot(quad)


def test_corners_tapped_in_any_order_are_put_in_order():
    points = [(190, 150), (128, 90), (126, 147), (186, 93)]
    assert StoneSpot.from_points(points, SIZE) == SPOT
    with pytest.raises(SpotError, match="four"):
        StoneSpot.from_points(points[:3])
