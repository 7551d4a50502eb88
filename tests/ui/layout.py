"""Checks of what a screen shows, for the layout tests: every widget on the screen and in
its box, every button a big touch target, no text cut."""

from companion.ui.theme import TOUCH_MIN


def on_screen(widget, root):
    while widget is not None and widget is not root:
        if widget.opacity == 0 or widget.width <= 0 or widget.height <= 0:
            return False
        widget = widget.parent
    return True


def text_cut(label):
    """Whether ``label`` shows less than its whole text: its text laid out without any
    shortening, wrapped at the label's width when it wraps, must fit the label."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    wraps = label.text_size[0] is not None and not label.shorten
    kind = MarkupLabel if label.markup else CoreLabel
    core = kind(text=label.text, font_size=label.font_size, bold=label.bold,
                     markup=label.markup, font_name=label.font_name,
                     text_size=(label.text_size[0] if wraps else None, None),
                     padding=label.padding)
    core.refresh()
    w, h = core.texture.size
    return w > label.width + 2 or h > label.height + 2


def problems_of(root, size, where):
    """What a player at arm's length would find wrong with what ``root`` shows in a window
    of ``size``: a widget off the screen or spilling out of its box, a button smaller than
    a big touch target, a text cut; one line each, naming ``where``."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.label import Label

    width, height = size
    found = []
    for w in root.walk():
        if w is root or not on_screen(w, root):
            continue
        x, y = w.to_window(w.x, w.y)
        if x < -1 or y < -1 or x + w.width > width + 1 or y + w.height > height + 1:
            found.append(f"{where}: {type(w).__name__} {getattr(w, 'text', '')!r} is off "
                         f"the screen at {x:.0f},{y:.0f} {w.width:.0f}x{w.height:.0f}")
        parent = w.parent
        if isinstance(parent, (BoxLayout, GridLayout)) and parent is not root and (
                w.x < parent.x - 1 or w.y < parent.y - 1 or w.right > parent.right + 1
                or w.top > parent.top + 1):
            found.append(f"{where}: {type(w).__name__} {getattr(w, 'text', '')!r} spills out "
                         f"of its {type(parent).__name__} (too much to fit)")
        if isinstance(w, Button) and min(w.width, w.height) < TOUCH_MIN:
            found.append(f"{where}: button {w.text!r} is {w.width:.0f}x{w.height:.0f}")
        if isinstance(w, Label) and w.text and text_cut(w):
            found.append(f"{where}: {w.text[:40]!r} is cut in {w.width:.0f}x{w.height:.0f}")
    return found
