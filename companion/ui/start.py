"""The start screen: choose the game, the players and the rule options; continue a saved game;
browse past games.

Starting a game hands a header to the app's ``start_game`` in the form of DESIGN.md's
``recording/game.json`` (``GameSetup.recording_header``): ``{"game": "nizam", "players":
["Ann", "Bob"], "options": {…}}`` with every option (one the game does not offer at its
default); The Desert Sands has its bag instead of options: ``"bag": {"red": 12, …}``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from companion.rules.errors import CompanionError
from companion.rules.game import MAX_PLAYERS, MIN_PLAYERS, OPTION_CHOICES, Options
from companion.rules.sands import DEFAULT_COUNT, Bag
from companion.rules.sands import PLAYERS as SANDS_PLAYERS
from companion.rules.setup import NIZAM, GameSetup, player_names
from companion.sands.solver import MOST_OF_A_COLOUR
from companion.session.kinds import CALLS_SCREEN, KINDS, title_of
from companion.store import StoreBusy
from companion.story import GameStory, PastGame
from companion.view import PastGameEntry
from companion.words import when_words

from . import theme
from .gameover import headline
from .story import open_story
from .widgets import Sheet, running_app, scale


class OptionRow(BoxLayout):
    title = StringProperty("")
    meaning = StringProperty("")  # what the choice made does, in plain words

    def __init__(self, game: str, key: str, value: str, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.key = key
        self.value = value
        self.title = theme.OPTION_TITLES[key]
        self.meaning = theme.option_meaning(game, key, value)
        self.buttons: dict[str, Button] = {}
        for choice in OPTION_CHOICES[key]:
            default = " (default)" if choice == OPTION_CHOICES[key][0] else ""
            button = Factory.ChoiceButton(
                text=choice + default, group=f"option-{key}",
                state="down" if choice == value else "normal",
                size_hint_x=0.25,
            )
            button.bind(on_release=lambda _b, c=choice: self.choose(c))
            self.add_widget(button)
            self.buttons[choice] = button

    def choose(self, choice: str) -> None:
        self.value = choice
        self.meaning = theme.option_meaning(self.game, self.key, choice)
        for name, button in self.buttons.items():
            button.state = "down" if name == choice else "normal"


class StoneCount(BoxLayout):
    stone = StringProperty("red")
    count = NumericProperty(DEFAULT_COUNT)  # D1: 12 of each colour
    most = NumericProperty(MOST_OF_A_COLOUR)  # the solver's table holds no more


Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def describe_game(game: PastGameEntry, result: GameStory | None = None) -> str:
    """One line for a stored game (``companion.store.StoredGame``) in the past-games list;
    a header no game reads is listed as such (opening the game says what is wrong). A
    finished game's ``result`` (its story) says who won, as the game-over screen says it."""
    try:
        setup = GameSetup.from_header(game.header)
    except CompanionError:
        what = "A game whose set-up cannot be read"
    else:
        what = f"{KINDS[setup.kind].title}: {', '.join(setup.names)}"
    state = "finished" if game.finished else "not finished"
    if game.finished and result is not None and result.ended and result.winners:
        state += f" · {headline(list(result.names), result.winners, True)}"
    return f"{what}\n{when_words(game.started)} · {state}"


TELLING_SECONDS = 0.05
"""The most one job of the past games list spends working out winners (at least one game):
a tap's job waits no longer for it."""


def stories_of(games: Sequence[PastGame], seconds: float,
               busy: set[tuple[int, int]] | None = None
               ) -> dict[tuple[int, int], GameStory | None]:
    """The stories of ``games`` told without the best calls (on the worker), in order, for
    about ``seconds`` (at least one game): by ``PastGame.told_as``; None for a log that
    cannot be read (its line stays as it is; its Story says why). A database busy for the
    moment (another program writing it) leaves that game untold, added to ``busy``: told
    again when the list next opens, not at once (each try may wait out the lock)."""
    began = time.monotonic()
    told: dict[tuple[int, int], GameStory | None] = {}
    for game in games:
        if told and time.monotonic() - began >= seconds:
            break
        try:
            told[game.told_as] = game.story_without_best_calls()
        except StoreBusy:  # not the game's fault: told when the list next opens
            if busy is not None:
                busy.add(game.told_as)
        except Exception:  # a line left as it is: what is wrong shows where it is opened
            told[game.told_as] = None
    return told


class StartScreen(Screen):
    game = StringProperty(NIZAM)
    count = NumericProperty(2)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.options: dict[str, str] = {k: v[0] for k, v in OPTION_CHOICES.items()}
        self.past: list[PastGameEntry] = []
        self.stories: dict[tuple[int, int], GameStory | None] = {}
        """Past games' stories told without the best calls (who won), by game and its events
        (``PastGame.told_as``), as the past games list or a Story worked them out: each is a
        fold of the whole game, done once. None: the log cannot be read (its Story says
        why)."""
        self._lines: dict[tuple[int, int], tuple[PastGame, Label]] = {}
        """The finished games of the past games list open now, with their lines, whose
        winner is not known yet."""
        self._telling = False
        """The worker is working out stories for the list now (one job at a time)."""
        self._busy: set[tuple[int, int]] = set()
        """Games the database was too busy to tell since the list opened: not asked for
        again until it opens again."""
        self._past_sheet: Sheet | None = None
        self.game_buttons: dict[str, Button] = {}
        for game, kind in KINDS.items():
            button = Factory.ChoiceButton(text=kind.title, group="game-choice",
                                          state="down" if game == self.game else "normal")
            button.bind(on_release=lambda _b, g=game: self.set_game(g))
            self.ids.games.add_widget(button)
            self.game_buttons[game] = button
        self.name_inputs = [
            Factory.NameInput(hint_text=f"Player {i + 1}") for i in range(MAX_PLAYERS)
        ]
        self.option_rows: dict[str, OptionRow] = {}
        self.stone_counts = {s: StoneCount(stone=s) for s in theme.STONES}
        self._layout()
        self.show_past([])

    # Choices ---------------------------------------------------------------------------

    @property
    def bag_chosen(self) -> bool:
        """Whether the chosen game is played with a bag of stones (The Desert Sands), so
        for two players, with the bag's stones to choose instead of rule options."""
        return KINDS[self.game].screen == CALLS_SCREEN

    def set_game(self, game: str) -> None:
        for name, button in self.game_buttons.items():
            button.state = "down" if name == game else "normal"
        for key, row in self.option_rows.items():
            self.options[key] = row.value
        self.game = game
        if self.bag_chosen:
            self.count = SANDS_PLAYERS
        self._layout()

    def set_count(self, count: int) -> None:
        if self.bag_chosen:
            count = SANDS_PLAYERS
        self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, count))
        self._layout()

    def _layout(self) -> None:
        sands = self.bag_chosen
        self.ids.fewer.disabled = sands or self.count <= MIN_PLAYERS
        self.ids.more.disabled = sands or self.count >= MAX_PLAYERS
        names = self.ids.names
        names.clear_widgets()
        for field in self.name_inputs[: self.count]:
            names.add_widget(field)
        box = self.ids.options
        box.clear_widgets()
        self.option_rows = {}
        if sands:
            box.add_widget(Factory.UiLabel(text="Stones in the bag", color=theme.MUTED))
            for pair in (theme.STONES[:2], theme.STONES[2:]):
                row = BoxLayout(size_hint_y=None, height=52 * scale(), spacing=12 * scale())
                for stone in pair:
                    count = self.stone_counts[stone]
                    if count.parent is not None:
                        count.parent.remove_widget(count)
                    row.add_widget(count)
                box.add_widget(row)
        else:
            for key in KINDS[self.game].options:
                row = OptionRow(self.game, key, self.options[key])
                box.add_widget(row)
                self.option_rows[key] = row

    def setup(self) -> GameSetup:
        """The game the players chose; a name left blank is ``Player N``."""
        names = player_names([field.text for field in self.name_inputs], self.count)
        if self.bag_chosen:
            bag = Bag.from_json({s: int(c.count) for s, c in self.stone_counts.items()})
            return GameSetup(self.game, names, bag=bag)
        options = {k: row.value for k, row in self.option_rows.items()}
        return GameSetup(self.game, names, Options.from_json(options))

    def header(self) -> dict[str, Any]:
        """The game the players chose, as DESIGN.md's recording/game.json writes it."""
        return self.setup().recording_header()

    # Buttons ---------------------------------------------------------------------------

    def start_game(self) -> None:
        running_app().begin_game(self.header())

    def on_pre_enter(self, *_: object) -> None:
        running_app().load_past_games(self.show_past)

    def show_past(self, games: Sequence[PastGameEntry]) -> None:
        self.past = list(games)
        unfinished = self.unfinished()
        app = running_app()
        can_resume = unfinished is not None and app.can_resume
        self.ids.resume.disabled = not can_resume
        if unfinished is not None and can_resume:
            title = title_of(unfinished.header)
            self.ids.resume.text = f"Continue {title}\n{when_words(unfinished.started)}"
        else:
            self.ids.resume.text = "Continue (no saved game)"
        self.ids.past.disabled = not self.past

    def unfinished(self) -> PastGameEntry | None:
        return next((g for g in self.past if not g.finished), None)

    def _tell_result(self, game: PastGameEntry, label: Label) -> None:
        """Who won a finished game, in its line of the list: at once where it is known,
        else once the worker has worked it out (``_tell_next``)."""
        if not (isinstance(game, PastGame) and game.finished):
            return
        key = game.told_as
        if key not in self.stories:
            self._lines[key] = (game, label)
        elif (story := self.stories[key]) is not None:
            label.text = describe_game(game, story)

    def _tell_next(self) -> None:
        """Work out, on the worker, the winners the open list still waits for: one job at a
        time, each for at most ``TELLING_SECONDS`` (a game or more), so a tap's job (Start,
        Continue, Story) waits for no more than that; the next one after it. Nothing while
        a job is under way (the games it holds are not asked for twice), or once the list
        is closed (the next opening goes on with what is left)."""
        sheet = self._past_sheet
        if self._telling or sheet is None or sheet.parent is None:
            return
        # a line waits only while its game is untold (``_keep`` takes it out)
        waiting = [game for key, (game, _) in self._lines.items() if key not in self._busy]
        if not waiting:
            return
        self._telling = True
        busy: set[tuple[int, int]] = set()  # the worker's own, handed back with what it told
        running_app().worker.submit(partial(stories_of, waiting, TELLING_SECONDS, busy),
                                    partial(self._told, busy))

    def _told(self, busy: set[tuple[int, int]],
              told: dict[tuple[int, int], GameStory | None]) -> None:
        self._telling = False
        self._busy |= busy
        for key, story in told.items():
            self._keep(key, story)
        self._tell_next()

    def _keep(self, key: tuple[int, int], story: GameStory | None) -> None:
        """A past game's story worked out: kept, and its line in the open list told."""
        self.stories[key] = story
        line = self._lines.pop(key, None)
        if line is not None and story is not None:
            line[1].text = describe_game(line[0], story)

    def _open_story(self, game: PastGame) -> None:
        """A past game's story: the one the list worked out where it is the same story (no
        best calls to mark), else worked out now and kept for the list."""
        if game.marks_best_calls:
            open_story(game, game.story)
            return
        key = game.told_as
        open_story(game, game.story, self.stories.get(key), partial(self._keep, key))

    def resume_game(self, game_id: int | None = None) -> None:
        if game_id is None:
            game = self.unfinished()
            if game is None:
                return
            game_id = game.id
        running_app().resume_game(game_id)

    def open_past_games(self) -> Sheet:
        app = running_app()
        s = scale()
        rows = GridLayout(cols=1, spacing=6 * s, size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        content = BoxLayout(orientation="vertical", spacing=6 * s)
        sheet = self._past_sheet = Sheet("Past games", content)
        self._lines = {}
        self._busy = set()
        for game in self.past:
            row = BoxLayout(size_hint_y=None, height=64 * s, spacing=6 * s)
            # Long names wrap: the row grows to hold them rather than cut them.
            label = Factory.UiLabel(text=describe_game(game), font_size=17 * s,
                                    pos_hint={"center_y": 0.5})
            label.bind(texture_size=lambda _l, size, r=row: setattr(
                r, "height", max(64 * s, size[1] + 8 * s)))
            row.add_widget(label)
            self._tell_result(game, label)
            if not game.finished and app.can_resume:
                button = Factory.BigButton(text="Continue", size_hint_x=None, width=170 * s,
                                           height=60 * s)

                def resume(_button: object, i: int = game.id) -> None:
                    sheet.dismiss()
                    self.resume_game(i)

                button.bind(on_release=resume)
                row.add_widget(button)
            if isinstance(game, PastGame):  # issue 15: the game's story
                button = Factory.BigButton(text="Story", size_hint_x=None, width=120 * s,
                                           height=60 * s)
                button.bind(on_release=lambda _b, g=game: self._open_story(g))
                row.add_widget(button)
            if app.can_export:
                button = Factory.BigButton(text="Export record", size_hint_x=None,
                                           width=170 * s, height=60 * s)
                button.bind(on_release=lambda _b, i=game.id: app.export_record(i))
                row.add_widget(button)
            rows.add_widget(row)
        scroller = ScrollView(do_scroll_x=False)
        scroller.add_widget(rows)
        close = Factory.BigButton(text="Close")
        close.bind(on_release=lambda _b: sheet.dismiss())
        content.add_widget(scroller)
        content.add_widget(close)
        sheet.open()
        self._tell_next()
        return sheet
