"""Synthetic camera frames of a rows x cols card layout on a table, with the ground truth.

Game-agnostic: the classes are whatever colours you pass in (letter -> BGR). A scene is
drawn in table millimetres (cards, their jitter, clutter around the grid, the cloth), seen
through a tilted, rolled camera (a homography), then lit (colour temperature, exposure, a
cast shadow, glare), maybe reached over by a hand, and finally degraded like a cheap camera
(noise, blur, JPEG).

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> scene = render_scene(rng, {"R": (40, 40, 200), "G": (60, 160, 40)}, rows=3, cols=3,
...                      size=(320, 240))
>>> scene.image.shape, len(scene.labels), scene.corners.shape
((240, 320, 3), 3, (4, 2))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.colour import decode, encode

from . import synthetic_art as art


@dataclass(frozen=True)
class Conditions:
    """How one scene is shot. Angles in degrees, lengths in millimetres."""

    tilt: float = 0.0  # camera tilt away from straight down
    tilt_dir: float = 0.0  # direction the camera leans, in the image
    roll: float = 0.0  # in-plane rotation of the grid
    jitter_mm: float = 0.0  # each card off its place by up to this
    jitter_deg: float = 0.0  # and turned by up to this
    cloth: str = "plain"
    kelvin: float = 5000.0  # colour temperature of the light
    white_balance: float = 5000.0  # what the camera's (locked) white balance expects
    exposure: float = 1.0
    shadow: bool = False
    glare: int = 0  # glare spots on cards
    hand: bool = False
    empty: int = 0  # cells with no card
    clutter: int = 0  # cards and objects around the grid
    noise: float = 0.0  # sensor noise sigma (0..255 scale)
    blur: float = 0.0  # defocus sigma in pixels
    jpeg: int = 0  # JPEG quality, 0 = none
    fill: float = 0.7  # how much of the frame height the grid spans
    veil: float = 0.0  # the light's own colour over the whole picture (flare), share of full scale
    second_kelvin: float = 0.0  # a second light from one side (a window by a lamp); 0: none
    lifted: bool = False  # a card held above the grid, between cells, its cell left empty
    # A lamp's broad reflection on one glossy card or two side by side (the other renderer
    # shows it so): the lamp's light over all of them, at most this share of full scale
    sheen: float = 0.0


def random_conditions(rng: np.random.Generator, hand: bool | None = None) -> Conditions:
    """Conditions drawn across the whole range the reader must handle."""
    return Conditions(
        tilt=float(rng.uniform(0, 35)),
        tilt_dir=float(rng.uniform(0, 360)),
        roll=float(rng.uniform(-20, 20)),
        jitter_mm=float(rng.uniform(0, 4)),
        jitter_deg=float(rng.uniform(0, 5)),
        cloth=str(art.CLOTHS[rng.integers(len(art.CLOTHS))]),
        kelvin=float(rng.uniform(2700, 6500)),
        exposure=float(rng.uniform(0.6, 1.4)),
        shadow=bool(rng.random() < 0.4),
        glare=int(rng.integers(0, 3)),
        hand=bool(rng.random() < 0.3) if hand is None else hand,
        empty=int(rng.integers(0, 3)) if rng.random() < 0.3 else 0,
        clutter=int(rng.integers(0, 6)),
        noise=float(rng.uniform(0, 5)),
        blur=float(rng.uniform(0, 1.2)),
        jpeg=int(rng.integers(60, 96)) if rng.random() < 0.7 else 0,
        fill=float(rng.uniform(0.55, 0.9)),
    )


def widened_conditions(rng: np.random.Generator, hand: bool | None = None) -> Conditions:
    """:func:`random_conditions` and more of what real tables show: a veil of flare over
    the picture, a second light of another colour from one side, a card lifted mid-move."""
    base = random_conditions(rng, hand)
    return replace(
        base,
        veil=float(rng.uniform(0.0, 0.06)),
        second_kelvin=float(rng.uniform(2700, 6500)) if rng.random() < 0.5 else 0.0,
        lifted=bool(rng.random() < 0.3),
    )


@dataclass(frozen=True, eq=False)
class Scene:
    """A rendered frame and what is really in it.

    ``labels``: one string per row, class letters and ``.`` for empty cells.
    ``corners``: TL TR BR BL of the grid's outer card boundary (as laid, before jitter).
    ``card_quads``: (rows, cols, 4, 2) where each card really is. ``covered``: (rows, cols)
    share of each cell's card hidden by the hand. ``sheened``: the cells (row, col) whose
    card lies under a lamp's sheen (``Conditions.sheen``).
    """

    image: np.ndarray
    labels: tuple[str, ...]
    corners: np.ndarray
    card_quads: np.ndarray
    covered: np.ndarray
    conditions: Conditions = field(default_factory=Conditions)
    sheened: tuple[tuple[int, int], ...] = ()


def kelvin_gains(kelvin: float, white_balance: float = 5000.0) -> np.ndarray:
    """BGR multipliers a camera balanced for ``white_balance`` sees under a black body at
    ``kelvin``: warm light turns white orange, cold light blue.

    >>> g = kelvin_gains(2700); bool(g[2] > g[1] > g[0])
    True
    >>> [round(float(x), 6) for x in kelvin_gains(4000, 4000)]
    [1.0, 1.0, 1.0]
    """
    return _blackbody_bgr(kelvin) / _blackbody_bgr(white_balance)


def _blackbody_bgr(kelvin: float) -> np.ndarray:
    # Planck's law sampled at typical camera primaries (B 460 nm, G 540 nm, R 610 nm).
    lam = np.array([460e-9, 540e-9, 610e-9])
    c2 = 1.4388e-2
    radiance = 1.0 / (lam**5 * (np.exp(c2 / (lam * kelvin)) - 1.0))
    return radiance / radiance[1]


def _rot(axis: str, deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _apply(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, float).reshape(-1, 2) @ m[:, :2].T + m[:, 2]
    return (p[:, :2] / p[:, 2:3]).reshape(np.shape(pts))


def _camera(
    rng: np.random.Generator, cond: Conditions, extent: np.ndarray, size: tuple[int, int]
) -> np.ndarray:
    """Table millimetres -> image pixels for a camera tilted by ``cond.tilt``, placing the
    grid (``extent``: its outer corners in mm) somewhere in the frame."""
    w, h = size
    rot = (
        _rot("z", cond.tilt_dir)
        @ _rot("x", cond.tilt)
        @ _rot("z", -cond.tilt_dir)
        @ _rot("z", cond.roll)
    )
    span = float(np.ptp(extent, axis=0).max())
    distance = span * rng.uniform(1.3, 2.2)
    f = 1.0
    raw = np.diag([f, f, 1.0]) @ np.column_stack([rot[:, 0], rot[:, 1], [0, 0, distance]])
    quad = _apply(raw, extent)
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    s = min(cond.fill * h / (hi[1] - lo[1]), 0.95 * w / (hi[0] - lo[0]), 0.95 * h / (hi[1] - lo[1]))
    room = np.array([w, h]) - s * (hi - lo)
    offset = rng.uniform(0.15, 0.85, 2) * np.maximum(room, 0) - s * lo
    place = np.array([[s, 0, offset[0]], [0, s, offset[1]], [0, 0, 1]])
    return place @ raw


def _local_scale(cam: np.ndarray, pt: np.ndarray) -> float:
    """Image pixels per millimetre around table point ``pt``."""
    a = _apply(cam, np.array([pt, pt + [1, 0], pt + [0, 1]], float))
    u, v = a[1] - a[0], a[2] - a[0]
    return float(math.sqrt(abs(u[0] * v[1] - u[1] * v[0])))


def _table(
    rng: np.random.Generator, cond: Conditions, cam: np.ndarray, size: tuple[int, int]
) -> np.ndarray:
    w, h = size
    inv = np.linalg.inv(cam)
    border = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    world = _apply(inv, border)
    angle = rng.uniform(0, 180)
    spin = _rot("z", angle)[:2, :2]
    local = world @ spin  # cloth coordinates (rotated so patterns run any way)
    lo, hi = local.min(axis=0) - 5, local.max(axis=0) + 5
    texel = max(1.0 / _local_scale(cam, world.mean(axis=0)), float((hi - lo).max()) / 1600)
    tw, th = (int(math.ceil(x)) for x in (hi - lo) / texel)
    pattern = art.cloth(rng, cond.cloth, (th, tw), texel)
    # cloth texel -> cloth mm -> table mm -> image
    to_local = np.array([[texel, 0, lo[0]], [0, texel, lo[1]], [0, 0, 1]])
    to_world = np.eye(3)
    to_world[:2, :2] = spin
    return cv2.warpPerspective(
        pattern,
        cam @ to_world @ to_local,
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )


def _paste(img: np.ndarray, sprite: np.ndarray, alpha: np.ndarray, m: np.ndarray) -> None:
    """Warp ``sprite`` by ``m`` (sprite px -> image px) onto ``img`` (float32)."""
    h, w = img.shape[:2]
    sh, sw = sprite.shape[:2]
    quad = _apply(m, np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], float))
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
    roi_size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(sprite, shift @ m, roi_size, flags=cv2.INTER_AREA)
    a = (
        cv2.warpPerspective(alpha, shift @ m, roi_size, flags=cv2.INTER_LINEAR).astype(np.float32)
        / 255
    )
    roi = img[y0:y1, x0:x1]
    roi += (warped.astype(np.float32) - roi) * a[..., None]


def _plain_ints(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A colour's channels as Python ints (a caller may pass numpy ones)."""
    b, g, r = colour
    return int(b), int(g), int(r)


def render_scene(
    rng: np.random.Generator,
    classes: Mapping[str, tuple[int, int, int]],
    rows: int = 5,
    cols: int = 5,
    conditions: Conditions | None = None,
    size: tuple[int, int] = (1280, 720),
    labels: tuple[str, ...] | None = None,
) -> Scene:
    """Draw one scene. ``classes``: letter -> nominal BGR colour of the card's field.
    ``conditions``: None draws random ones. ``labels``: the layout, else a random one."""
    cond = conditions if conditions is not None else random_conditions(rng)
    letters = list(classes)
    if labels is None:
        cells = [letters[i] for i in rng.integers(len(letters), size=rows * cols)]
        for i in rng.choice(rows * cols, size=min(cond.empty, rows * cols - 1), replace=False):
            cells[i] = "."
        labels = tuple("".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))
    if len(labels) != rows or any(len(row) != cols for row in labels):
        raise ValueError(f"labels must be {rows} rows of {cols} cells")
    card_w = rng.uniform(40, 62)
    card_h = card_w * rng.uniform(1.0, 1.5)
    gap = card_w * rng.uniform(0.06, 0.3)
    pitch = np.array([card_w + gap, card_h + gap])
    grid_centres = np.stack(np.meshgrid(np.arange(cols), np.arange(rows)), -1) - [
        (cols - 1) / 2,
        (rows - 1) / 2,
    ]
    grid_centres = grid_centres * pitch
    half = np.array([card_w, card_h]) / 2
    outer = np.array(
        [
            grid_centres[0, 0] - half,
            grid_centres[0, -1] + [half[0], -half[1]],
            grid_centres[-1, -1] + half,
            grid_centres[-1, 0] + [-half[0], half[1]],
        ]
    )
    cam = _camera(rng, cond, outer, size)
    img = _table(rng, cond, cam, size).astype(np.float32)
    px_per_mm = _local_scale(cam, np.zeros(2)) * 1.5
    sw, sh = max(8, round(card_w * px_per_mm)), max(8, round(card_h * px_per_mm))
    sprites = {
        letter: art.card_face(rng, _plain_ints(classes[letter]), k, sh, sw)
        for k, letter in enumerate(letters)
    }
    to_mm = np.array([[1 / px_per_mm, 0, -card_w / 2], [0, 1 / px_per_mm, -card_h / 2], [0, 0, 1]])

    def placement(centre: np.ndarray, deg: float) -> np.ndarray:
        m = np.eye(3)
        m[:2, :2] = _rot("z", deg)[:2, :2]
        m[:2, 2] = centre
        return cam @ m @ to_mm

    _clutter(rng, img, cam, cond, outer, sprites, placement, (card_w, card_h))
    lifted = None
    if cond.lifted:
        held = [(r, c) for r in range(rows) for c in range(cols) if labels[r][c] != "."]
        if held:
            r0, c0 = held[rng.integers(len(held))]
            lifted = (r0, c0, labels[r0][c0])
            labels = tuple(row[:c0] + "." + row[c0 + 1:] if r == r0 else row
                           for r, row in enumerate(labels))
    quads = np.zeros((rows, cols, 4, 2))
    corners_mm = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], float)
    for r in range(rows):
        for c in range(cols):
            centre = grid_centres[r, c] + rng.uniform(-1, 1, 2) * cond.jitter_mm
            m = placement(centre, float(rng.uniform(-1, 1) * cond.jitter_deg))
            quads[r, c] = _apply(m, corners_mm)
            if labels[r][c] == ".":
                continue
            sprite, alpha = (
                sprites[labels[r][c]] if labels[r][c] in sprites else art.card_back(rng, sh, sw)
            )
            _paste(img, sprite, alpha, m)
    held_mask = None
    if lifted is not None:
        held_mask = _lift(rng, img, sprites, grid_centres, pitch, placement, lifted, (sw, sh))
    corners = _apply(cam, outer)
    img = _as_light(img)  # colours are drawn as the camera shows them; light acts on light
    img = _light(rng, img, cond, quads, labels)
    sheened = _sheen(rng, img, cond, quads, labels) if cond.sheen else ()
    covered = np.zeros((rows, cols))
    if cond.hand:
        img, hand = _hand(rng, img, cam, cond, outer, quads)
        covered = _covered(hand, quads)
    if held_mask is not None:
        covered = np.maximum(covered, _covered(held_mask, quads))
    out = _sensor(rng, img, cond)
    return Scene(out, tuple(labels), corners, quads, covered, cond, sheened)


def _lift(rng, img, sprites, grid_centres, pitch, placement, lifted, size) -> np.ndarray:
    """The card of cell (r, c) held above the grid on its way to a neighbouring cell: nearer
    the camera (bigger), between cells, with its shadow on the cards below. Returns the
    mask of what it hides."""
    r, c, letter = lifted
    step = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]])[rng.integers(4)]
    centre = grid_centres[r, c] + step * pitch * rng.uniform(0.3, 0.7)
    scale = rng.uniform(1.08, 1.2)
    m = placement(centre, float(rng.uniform(-15, 15)))
    sw, sh = size
    around = np.array([[1, 0, sw / 2], [0, 1, sh / 2], [0, 0, 1]]) @ np.diag([scale, scale, 1]) \
        @ np.array([[1, 0, -sw / 2], [0, 1, -sh / 2], [0, 0, 1]])
    quad = _apply(m @ around, np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], float))
    shadow = np.zeros(img.shape[:2], np.uint8)
    offset = (quad[2] - quad[0]) * 0.12
    cv2.fillConvexPoly(shadow, np.round(quad + offset).astype(np.int32), 255)
    img *= (1 - 0.4 * _soft(shadow, 6.0))[..., None]
    sprite, alpha = sprites[letter]
    _paste(img, sprite, alpha, m @ around)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return mask.astype(np.float32)


def _clutter(rng, img, cam, cond, outer, sprites, placement, card) -> None:
    """Cards (face up or down) and small objects on the table around the grid."""
    lo, hi = outer.min(axis=0), outer.max(axis=0)
    size = hi - lo
    h, w = img.shape[:2]
    inv_ok = np.array([[0, 0], [w, h]])
    for _ in range(cond.clutter):
        for _attempt in range(10):
            pt = lo - 0.6 * size + rng.random(2) * 2.2 * size
            # Outside the grid with a clear margin: the deck and discard piles lie beside it.
            margin = 0.7 * max(card)
            if np.all(pt > lo - margin) and np.all(pt < hi + margin):
                continue
            ip = _apply(cam, pt)
            if np.all(ip > inv_ok[0]) and np.all(ip < inv_ok[1]):
                break
        else:
            continue
        kind = rng.random()
        if kind < 0.6:
            if rng.random() < 0.5:
                sprite, alpha = sprites[list(sprites)[rng.integers(len(sprites))]]
            else:
                sprite, alpha = art.card_back(rng, *next(iter(sprites.values()))[0].shape[:2])
            for k in range(int(rng.integers(1, 4))):  # a small pile, edges not quite square
                _paste(
                    img,
                    sprite,
                    alpha,
                    placement(pt + rng.normal(0, 1.5, 2), float(rng.uniform(-90, 90)) + k),
                )
        else:
            ip = _apply(cam, pt)
            s = _local_scale(cam, pt)
            colour = rng.uniform(30, 230, 3).tolist()
            if kind < 0.8:  # a coin or a bottle cap
                cv2.circle(
                    img,
                    tuple(np.round(ip).astype(int)),
                    max(2, round(rng.uniform(9, 14) * s)),
                    colour,
                    -1,
                    cv2.LINE_AA,
                )
            else:  # a pen or a phone
                length, width = (rng.uniform(110, 150), rng.uniform(8, 70))
                box = cv2.boxPoints(
                    (
                        (float(ip[0]), float(ip[1])),
                        (length * s, width * s),
                        float(rng.uniform(0, 180)),
                    )
                )
                cv2.fillConvexPoly(img, np.round(box).astype(np.int32), colour, cv2.LINE_AA)


def _light(rng, img, cond, quads, labels) -> np.ndarray:
    """Exposure, light colour, a cast shadow, glare spots (before the hand: it is above)."""
    h, w = img.shape[:2]
    gain = np.full((h, w), cond.exposure, np.float32)
    # A lamp to one side: a gentle gradient over the frame.
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    ramp = (
        1
        + gx * (np.arange(w, dtype=np.float32)[None, :] / w - 0.5)
        + gy * (np.arange(h, dtype=np.float32)[:, None] / h - 0.5)
    )
    gain *= ramp
    if cond.shadow:
        mask = np.zeros((h, w), np.uint8)
        centre = quads[rng.integers(quads.shape[0]), rng.integers(quads.shape[1])].mean(axis=0)
        d = rng.normal(size=2)
        d /= np.linalg.norm(d)
        n = np.array([-d[1], d[0]])
        far = 3 * max(h, w)
        poly = np.array(
            [
                centre + n * far,
                centre + n * far + d * far,
                centre - n * far + d * far,
                centre - n * far,
            ]
        )
        cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 255)
        gain *= 1 - rng.uniform(0.3, 0.6) * _soft(mask, rng.uniform(2, 20))
    out = img * gain[..., None]
    wb = kelvin_gains(cond.kelvin, cond.white_balance).astype(np.float32)
    out *= wb / wb.max() * rng.uniform(1.0, 1.15)
    if cond.second_kelvin:
        # a second light of another colour reaching over the frame from one side
        other = kelvin_gains(cond.second_kelvin, cond.white_balance).astype(np.float32)
        a = rng.uniform(0, 2 * np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = ((xx / w - 0.5) * np.cos(a) + (yy / h - 0.5) * np.sin(a)) + 0.5
        t = np.clip(t, 0, 1)[..., None] * rng.uniform(0.3, 0.8)
        out *= 1 + t * (other / wb - 1)
    if cond.veil:
        # flare is the scene's own light scattered in the lens: it has the light's colour
        out += cond.veil * 255.0 * cond.exposure * wb / wb.max()
    # Glare: the lamp's reflection on a few glossy cards, bright enough to clip.
    cards = [
        (r, c) for r in range(len(labels)) for c in range(len(labels[0])) if labels[r][c] != "."
    ]
    for _ in range(cond.glare if cards else 0):
        r, c = cards[rng.integers(len(cards))]
        q = quads[r, c]
        p = q.mean(axis=0) + (q[2] - q[0]) * rng.uniform(-0.3, 0.3, 2)
        radius = np.linalg.norm(q[1] - q[0]) * rng.uniform(0.12, 0.3)
        reach = int(2 * radius) + 4
        x0, y0 = max(0, int(p[0]) - reach), max(0, int(p[1]) - reach)
        x1, y1 = min(w, int(p[0]) + reach), min(h, int(p[1]) + reach)
        if x1 <= x0 or y1 <= y0:
            continue
        spot = np.zeros((y1 - y0, x1 - x0), np.float32)
        axes = (max(1, round(radius)), max(1, round(radius * rng.uniform(0.4, 1))))
        cv2.ellipse(
            spot,
            (round(p[0]) - x0, round(p[1]) - y0),
            axes,
            float(rng.uniform(0, 180)),
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
        )
        spot = cv2.GaussianBlur(spot, (0, 0), max(1.0, radius / 3))
        # The card is glossy, the cloth is not: the reflection stops at the card's edge.
        card = np.zeros_like(spot)
        cv2.fillConvexPoly(
            card, np.round((q - [x0, y0]) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4
        )
        out[y0:y1, x0:x1] += (spot * card * rng.uniform(200, 400))[..., None] * (wb / wb.max())
    return out


def _sheen(rng, img, cond, quads, labels) -> tuple[tuple[int, int], ...]:
    """A lamp's broad reflection on one glossy card or two side by side, added to ``img``
    (light): the lamp's light at ``cond.sheen`` of full scale where it is brightest, on the
    card or near it, falling off smoothly over about a card; the cloth is matte, so it
    stops at the cards' edges. Returns the cells it lies on."""
    rows, cols = len(labels), len(labels[0])
    cards = [(r, c) for r in range(rows) for c in range(cols) if labels[r][c] != "."]
    if not cards:
        return ()
    r, c = cards[rng.integers(len(cards))]
    lit = [(r, c)]
    dr, dc = ((0, 1), (1, 0), (0, -1), (-1, 0))[rng.integers(4)]
    if rng.random() < 0.5 and 0 <= r + dr < rows and 0 <= c + dc < cols \
            and labels[r + dr][c + dc] != ".":
        lit.append((r + dr, c + dc))
    h, w = img.shape[:2]
    glossy = np.zeros((h, w), np.float32)
    for rc in lit:
        cv2.fillConvexPoly(glossy, np.round(quads[rc] * 16).astype(np.int32), 1.0,
                           cv2.LINE_AA, 4)
    q = quads[lit[0]]
    side = float(np.linalg.norm(q[1] - q[0]))
    # brightest where the lamp's image falls: on the pair, a little off its middle
    middle = np.mean([quads[rc].mean(axis=0) for rc in lit], axis=0)
    peak = middle + (q[2] - q[0]) * rng.uniform(-0.25, 0.25, 2)
    sigma = side * rng.uniform(0.6, 1.2)
    yy, xx = np.ogrid[:h, :w]
    falloff = np.exp(-((xx - peak[0]) ** 2 + (yy - peak[1]) ** 2) / (2 * sigma * sigma))
    wb = kelvin_gains(cond.kelvin, cond.white_balance).astype(np.float32)
    lamp = cond.sheen * 255.0 * cond.exposure * wb / wb.max()
    img += (glossy * falloff.astype(np.float32))[..., None] * lamp
    return tuple(lit)


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A 0/255 mask blurred by ``sigma`` px, as float 0..1 (blurred on a quarter-size copy)."""
    h, w = mask.shape
    small = cv2.resize(mask, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small.astype(np.float32) / 255, (0, 0), max(0.5, sigma / 4))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _hand(rng, img, cam, cond, outer, quads) -> tuple[np.ndarray, np.ndarray]:
    """A hand reaching over the grid from one side of the frame, and its shadow."""
    h, w = img.shape[:2]
    r, c = rng.integers(quads.shape[0]), rng.integers(quads.shape[1])
    target = quads[r, c].mean(axis=0)
    side = rng.integers(4)
    entry = [
        np.array([rng.uniform(0, w), -40.0]),
        np.array([w + 40.0, rng.uniform(0, h)]),
        np.array([rng.uniform(0, w), h + 40.0]),
        np.array([-40.0, rng.uniform(0, h)]),
    ][side]
    centre_mm = _apply(np.linalg.inv(cam), target)
    scale = _local_scale(cam, centre_mm)
    d = target - entry
    wrist = target - d / np.linalg.norm(d) * 60 * scale
    mask = art.hand_mask(rng, (h, w), wrist, entry, scale)
    shift = rng.normal(0, 25 * scale, 2)
    shadow = cv2.warpAffine(
        mask, np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32), (w, h)
    )
    shadow = _soft((shadow * 255).astype(np.uint8), 6 * scale + 1)
    img = img * (1 - 0.35 * shadow)[..., None]
    skin = _as_light(art.hand_colour(rng, mask, wrist, entry))
    wb = kelvin_gains(cond.kelvin, cond.white_balance).astype(np.float32)
    skin *= cond.exposure * wb / wb.max()
    img += (skin - img) * mask[..., None]
    return img, mask


def _covered(hand: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Share of each card's area under the hand mask."""
    h, w = hand.shape
    out = np.zeros(quads.shape[:2])
    for r in range(quads.shape[0]):
        for c in range(quads.shape[1]):
            q = quads[r, c]
            x0, y0 = np.clip(np.floor(q.min(axis=0)).astype(int), 0, [w, h])
            x1, y1 = np.clip(np.ceil(q.max(axis=0)).astype(int) + 1, 0, [w, h])
            if x1 <= x0 or y1 <= y0:
                continue
            m = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillConvexPoly(m, np.round(q - [x0, y0]).astype(np.int32), 1)
            inside = m.astype(bool)
            if inside.any():
                out[r, c] = float(hand[y0:y1, x0:x1][inside].mean())
    return out


def _as_light(img: np.ndarray) -> np.ndarray:
    """Camera values (0..255, as drawn) to light on the same scale."""
    return (255.0 * decode(img / 255.0)).astype(np.float32)


def _sensor(rng, img, cond) -> np.ndarray:
    """The lens's blur on the light, the camera's sRGB curve, then its noise and JPEG."""
    if cond.blur > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), cond.blur)
    img = (255.0 * encode(img / 255.0)).astype(np.float32)
    if cond.noise > 0:
        noise = np.empty(img.shape[:2], np.float32)
        # cv2's generator is much faster than numpy's here; seed it from ours to stay repeatable.
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(noise, 0.0, float(cond.noise))  # type: ignore[call-overload]  # floats work
        img = img + noise[..., None]
    out = np.clip(img, 0, 255).astype(np.uint8)
    if cond.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, cond.jpeg])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
