"""One touch, one tap: which of Kivy's input providers read the screen, in the kiosk and in
a desktop session, and which event devices are touchscreens (the doctor asks too).

Left to its defaults on Linux, Kivy listens to a touchscreen twice: its ``mouse`` provider
takes SDL's mouse events (SDL makes a mouse click of every touch), and ``probesysfs`` opens
the same touchscreen again through mtdev or hidinput. One tap then arrives as two touches
(Kivy issue 3801) and Draw or End turn fires twice. So the providers are set explicitly,
one path in each kind of session:

- **desktop session** (``DISPLAY`` or ``WAYLAND_DISPLAY``: the Pi's desktop, a PC): the
  compositor owns the touchscreen and hands each touch to SDL as a mouse press; only the
  ``mouse`` provider listens. The cursor shows: a mouse may be used.
- **kiosk** (``COMPANION_KIOSK=1``, set by the boot service: SDL draws straight on the
  display, no desktop): each touchscreen is read directly by Kivy's ``hidinput`` (what Kivy
  uses on a Pi), and the mouse provider is off, so the mouse presses SDL makes of the same
  touch are ignored. No cursor. A kiosk without a touchscreen falls back to the mouse, with
  its cursor, so it can still be worked.

>>> setup = input_setup({"DISPLAY": ":0"}, [])
>>> setup.providers, setup.show_cursor
({'mouse': 'mouse,disable_multitouch'}, True)
>>> input_setup({"COMPANION_KIOSK": "1"}, [(Path("/dev/input/event4"), "ft5x06")])
InputSetup(providers={'touch_event4': 'hidinput,/dev/input/event4'}, show_cursor=False, kiosk=True)
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vision.sources.usb import node_number

KIOSK_ENV = "COMPANION_KIOSK"
MOUSE = {"mouse": "mouse,disable_multitouch"}
"""SDL's mouse events as touches; a right click must not leave a red multitouch dot."""
ABS_X, ABS_MT_POSITION_X, BTN_TOUCH, INPUT_PROP_DIRECT = 0x00, 0x35, 0x14A, 0x01


@dataclass(frozen=True)
class InputSetup:
    """Kivy's ``[input]`` section (name -> provider line) and whether the cursor shows."""

    providers: dict[str, str]
    show_cursor: bool
    kiosk: bool


def input_setup(env: Mapping[str, str], screens: Sequence[tuple[Path, str]]) -> InputSetup:
    """The providers for this session: ``env`` is the process environment, ``screens`` the
    touchscreens (``touchscreens()``)."""
    kiosk = env.get(KIOSK_ENV) == "1" and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    if kiosk and screens:
        return InputSetup({f"touch_{node.name}": f"hidinput,{node}" for node, _ in screens},
                          show_cursor=False, kiosk=True)
    return InputSetup(dict(MOUSE), show_cursor=True, kiosk=kiosk)


def touchscreens(sys: Path = Path("/sys"), dev: Path = Path("/dev")) -> Iterator[tuple[Path, str]]:
    """Event devices that are touchscreens: direct input with absolute position and touch."""
    for event in sorted(sys.glob("class/input/event*"), key=node_number):
        device = event / "device"
        caps = device / "capabilities"
        abs_bits, key_bits = bitmask(_read(caps / "abs")), bitmask(_read(caps / "key"))
        if (
            INPUT_PROP_DIRECT in bitmask(_read(device / "properties"))
            and BTN_TOUCH in key_bits
            and (ABS_MT_POSITION_X in abs_bits or ABS_X in abs_bits)
        ):
            yield dev / "input" / event.name, _read(device / "name")


def bitmask(text: str) -> set[int]:
    """The bits set in a sysfs capability mask: hex words of a C long, most significant first.

    >>> sorted(bitmask("1 3"))  # on a 64-bit machine
    [0, 1, 64]
    """
    width = 8 * struct.calcsize("l")
    bits: set[int] = set()
    for i, word in enumerate(reversed(text.split())):
        value = int(word, 16)
        bits.update(i * width + b for b in range(width) if value >> b & 1)
    return bits


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return ""
