"""A made-up machine for the doctor: its own /sys, /dev and board name."""

from __future__ import annotations

import struct
from pathlib import Path

from companion import doctor, touch


class Machine:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.sys = root / "sys"
        self.dev = root / "dev"
        self.env: dict[str, str] = {}
        self.model_file = root / "model"
        self.unit_file = root / "nizam-companion.service"
        self.groups = {"pi", "video", "render", "input"}
        self.known_groups = {"pi", "video", "render", "input", "audio"}

    def host(self) -> doctor.Host:
        return doctor.Host(self.sys, self.dev, dict(self.env), self.model_file, self.unit_file,
                           frozenset(self.groups), frozenset(self.known_groups),
                           self.root / "autostart" / doctor.AUTOSTART)

    def write(self, path: str, text: str) -> Path:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        return target

    def pi(self, model: str = "Raspberry Pi 5 Model B Rev 1.0") -> None:
        self.write("model", model + "\x00")

    def screen(self, card: str = "card1", connector: str = "DSI-1", mode: str = "800x480") -> None:
        self.write(f"dev/dri/{card}", "")
        self.write(f"sys/class/drm/{card}-{connector}/status", "connected\n")
        self.write(f"sys/class/drm/{card}-{connector}/modes", f"{mode}\n")

    def input_device(self, event: str, name: str, props: str, abs_: str, key: str) -> None:
        device = f"sys/class/input/{event}/device"
        self.write(f"{device}/name", name + "\n")
        self.write(f"{device}/properties", props + "\n")
        self.write(f"{device}/capabilities/abs", abs_ + "\n")
        self.write(f"{device}/capabilities/key", key + "\n")
        self.write(f"dev/input/{event}", "")

    def touchscreen(self, event: str = "event4", name: str = "generic ft5x06 (79)") -> None:
        self.input_device(event, name, mask(touch.INPUT_PROP_DIRECT),
                          mask(touch.ABS_X, touch.ABS_MT_POSITION_X), mask(touch.BTN_TOUCH))

    def video(self, node: str, name: str, index: int = 0) -> Path:
        self.write(f"sys/class/video4linux/{node}/name", name + "\n")
        self.write(f"sys/class/video4linux/{node}/index", f"{index}\n")
        return self.write(f"dev/{node}", "")

    def sensor(self, subdev: str, name: str) -> None:
        self.write(f"sys/class/video4linux/{subdev}/name", name + "\n")


def mask(*bits: int) -> str:
    """A sysfs capability mask with these bits set: hex words of a C long, high word first."""
    width = 8 * struct.calcsize("l")
    words = [0] * (max(bits) // width + 1)
    for bit in bits:
        words[bit // width] |= 1 << (bit % width)
    return " ".join(f"{w:x}" for w in reversed(words))
