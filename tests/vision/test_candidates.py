"""The lattice search's cheaper ways of measuring regions give OpenCV's own numbers, to the
bit: the search must find the same regions as before, only sooner."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.candidates import (
    CUTS,
    FIRST_CUTS,
    CandidateFinder,
    Channels,
    Joined,
    _merge,
    _quad,
    _same_region_pairs,
    local_cut,
    quad_areas,
)


def _images(seed: int) -> list[np.ndarray]:
    """Noise, blurred noise and hard-clipped noise: flat areas, edges, and pixels at 0 and 255."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(12):
        h, w = (int(v) for v in rng.integers(24, 200, 2))
        img = rng.integers(0, 256, (h, w)).astype(np.uint8)
        if k % 2:
            img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.5, 6.0)))
        if k % 3 == 0:
            img = np.clip(img.astype(int) * 3 - 250, 0, 255).astype(np.uint8)
        out.append(img)
    return out


@pytest.mark.parametrize("block", [3, 11, 73])
def test_local_cut_is_opencvs_adaptive_threshold(block):
    for img in _images(block):
        ref = cv2.adaptiveThreshold(
            img, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -6
        )
        assert np.array_equal(local_cut(img, block), ref)


def test_local_cut_where_the_mean_is_near_white():
    # a flat image with isolated pixels: the mean stays the flat level, every pixel is tried
    for level in (0, 6, 7, 248, 249, 250, 255):
        img = np.full((8 * 74, 32 * 74), level, np.uint8)
        img[37::74, 37::74] = np.arange(256, dtype=np.uint8).reshape(8, 32)
        ref = cv2.adaptiveThreshold(img, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 73, -6)
        assert np.array_equal(local_cut(img, 73), ref)


def test_outlines_measured_at_once_as_opencv_measures_each():
    for img in _images(7):
        cut = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
        contours, _ = cv2.findContours(cut, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        joined = Joined(contours)
        assert joined.lengths.tolist() == [len(c) for c in contours]
        assert joined.areas().tolist() == [cv2.contourArea(c) for c in contours]
        some = np.flatnonzero(np.arange(len(contours)) % 3 != 1)  # a subset, in order
        lo, hi = joined.bounds(some)
        rects = np.array([cv2.boundingRect(contours[k]) for k in some]).reshape(-1, 4)
        assert np.array_equal(lo, rects[:, :2])
        assert np.array_equal(hi, rects[:, :2] + rects[:, 2:] - 1)


def test_quadrilateral_areas_as_opencv_gives_them():
    rng = np.random.default_rng(3)
    quads = rng.integers(-50, 600, (500, 4, 2)).astype(np.float64)
    ref = [cv2.contourArea(q.astype(np.float32)) for q in quads]
    assert quad_areas(quads).tolist() == ref


def _cards(seed: int) -> np.ndarray:
    """White cards and coloured stickers on a noisy dark table."""
    rng = np.random.default_rng(seed)
    img = rng.integers(20, 60, (288, 512, 3)).astype(np.uint8)
    for r in range(3):
        for c in range(4):
            x, y = 60 + 100 * c, 30 + 85 * r
            cv2.rectangle(img, (x, y), (x + 60, y + 70), (235, 235, 235), -1)
            colour = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.rectangle(img, (x + 12, y + 14), (x + 48, y + 56), colour, -1)
    return img


def test_channels_are_the_blurred_images_largest_smallest_and_their_difference():
    for seed in range(3):
        img = _cards(seed)
        b, g, r = cv2.split(cv2.GaussianBlur(img, (3, 3), 0))
        ch = Channels(img)
        assert np.array_equal(ch.lo, np.minimum(np.minimum(b, g), r))
        assert np.array_equal(ch.hi, np.maximum(np.maximum(b, g), r))
        assert np.array_equal(ch.chroma, ch.hi - ch.lo)


def test_a_finder_asked_again_merges_again_only_what_a_cut_added():
    finder = CandidateFinder(_cards(1), 12)
    first = finder.add(FIRST_CUTS)
    assert len(first) >= 12
    assert finder.add(FIRST_CUTS[:1]) is first  # no cut run: the very regions
    more = finder.add(CUTS)
    assert more is not first
    fresh = _merge(finder.found)
    for name in ("centres", "areas", "boxes", "votes"):
        assert np.array_equal(getattr(more, name), getattr(fresh, name))


def test_same_region_pairs_are_all_pairs_of_near_like_regions():
    # small regions in clusters, and a big one: it must not hide or add a pair
    rng = np.random.default_rng(4)
    for _ in range(20):
        n = int(rng.integers(2, 120))
        centres = rng.uniform(0, 200, (n, 2))
        centres[n // 2 :] = centres[: n - n // 2] + rng.normal(0, 1.5, (n - n // 2, 2))
        areas = np.exp(rng.uniform(3, 7, n))
        areas[0] = 40000.0
        i, j = _same_region_pairs(centres, areas)
        got = {(min(a, b), max(a, b)) for a, b in zip(i.tolist(), j.tolist(), strict=True)}
        want = set()
        for a in range(n):
            for b in range(a + 1, n):
                small, big = sorted((areas[a], areas[b]))
                d = np.hypot(*(centres[a] - centres[b]))
                if d < 0.2 * np.sqrt(small) and big < 2.0 * small:
                    want.add((a, b))
        assert got == want and len(got) == len(i)


def test_quadrilaterals_of_hulls_as_opencv_gives_them():
    rng = np.random.default_rng(8)
    for _ in range(300):
        n = int(rng.integers(4, 40))
        blob = (rng.normal(0, 1, (n, 1, 2)) * rng.uniform(2, 60, 2)).round().astype(np.int32)
        hull = cv2.convexHull(blob)
        if len(hull) < 4:
            continue
        assert np.array_equal(_quad(hull), cv2.approxPolyN(hull, 4))
    # three corners in a line: OpenCV's test does not take it for convex
    line = np.array([[[0, 0]], [[5, 0]], [[10, 0]], [[10, 10]], [[0, 10]]], np.int32)
    assert np.array_equal(_quad(line), cv2.approxPolyN(line, 4))
