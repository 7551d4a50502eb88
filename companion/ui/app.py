"""The touchscreen app: the screens, the poll of the session, and the way taps reach it.

The app is handed everything it talks to, so tests (and the demo) pass their own:

- ``start_game(header) -> controller``: a new game from the start screen's header
  (``{"game": "nizam", "players": ["Ann", "Bob"], "options": {…}}``, see ``start.py``);
  the controller is a ``TableController`` or a ``SandsController`` (``companion.view``),
  its ``kind`` naming the screen that shows it: its game's ``GameKind.screen``
  (``companion.session.kinds``), which is also that screen's name here.
- ``games() -> [PastGameEntry]``: the saved games, newest first (``GameStore.games``).
- ``resume_game(game_id) -> controller``: reopen a saved game.
- ``calibration``: ``CalibrationHooks`` for the calibration wizard.
- A Desert Sands controller whose ``stone_camera()`` gives a camera side
  (``companion.live.stones.SandsWatcher``) gets the camera's read of the stone spot on its
  screen and the stone camera set-up.
- ``export_record(game_id) -> str``: write the game record somewhere; returns where (and,
  on a line after it, what the record leaves out of a move under way: a turn not over).

Controllers are asked for ``view()`` and ``camera()`` on the main thread about 30 times a
second, so those must be cheap reads of what the session already has. ``tap`` runs on the
worker thread, one at a time, in the order of the taps. ``close()`` is called when the
players leave the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import NumericProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.errors import said
from companion.session.kinds import CALLS_SCREEN, TABLE_SCREEN
from companion.view import Controller, PastGameEntry, SandsView, TableView
from companion.words import plain

from . import theme
from .calibration import CalibrationScreen
from .gameover import GameOverScreen
from .hooks import CalibrationHooks, stone_hooks
from .sands import SandsScreen
from .screen import GameScreen
from .start import StartScreen
from .stones import StonesScreen
from .table import TableScreen
from .widgets import Banner
from .worker import Worker

POLL_INTERVAL = 1 / 30
TAPPED_TWICE = "Tapped again before the last tap was done: it counts once. Tap again for another."


class CompanionApp(App):
    scale = NumericProperty(1.0)
    title = "Nizam companion"

    def __init__(
        self,
        start_game: Callable[[dict[str, Any]], Controller | None],
        *,
        games: Callable[[], Sequence[PastGameEntry]] | None = None,
        resume_game: Callable[[int], Controller] | None = None,
        calibration: CalibrationHooks | None = None,
        export_record: Callable[[int], str] | None = None,
        initial: Callable[[], Controller] | None = None,
        poll_interval: float = POLL_INTERVAL,
        size: tuple[int, int] | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)
        self.root_size = size  # None: fill the window; else a fixed size at its bottom-left
        self._start_game = start_game
        self._games = games
        self._resume_game = resume_game
        self._export_record = export_record
        self._initial = initial
        self.calibration_hooks = calibration
        self.poll_interval = poll_interval
        self.controller: Controller | None = None
        self.worker = Worker(self.show_error)
        self._tapping: set[tuple[object, ...]] = set()
        """Taps sent to the session whose answer the screen does not show yet."""
        self._last_error = ""
        self._last_message = ""
        self._before_calibration = "start"

    @property
    def can_resume(self) -> bool:
        return self._resume_game is not None

    @property
    def can_export(self) -> bool:
        return self._export_record is not None

    # Building -------------------------------------------------------------------------

    def build(self) -> FloatLayout:
        from kivy.core.window import Window

        # The screens draw no background of their own: clearing is free, a full-screen
        # rectangle is not (a software GL fills every pixel of every layer).
        Window.clearcolor = theme.BACKGROUND
        if self.root_size is None:
            root = FloatLayout()
        else:
            root = FloatLayout(size_hint=(None, None), size=self.root_size, pos=(0, 0))
        root.bind(size=self._resized)
        self._resized(root, Window.size if self.root_size is None else self.root_size)
        self.manager = ScreenManager(transition=NoTransition())
        self.start_screen = StartScreen(name="start")
        self.table_screen = TableScreen(name=TABLE_SCREEN)
        self.sands_screen = SandsScreen(name=CALLS_SCREEN)
        self.calibration_screen = CalibrationScreen(self.calibration_hooks, name="calibration")
        self.gameover_screen = GameOverScreen(name="gameover")
        self.stones_screen = StonesScreen(name="stones")
        for screen in (self.start_screen, self.table_screen, self.sands_screen,
                       self.calibration_screen, self.gameover_screen, self.stones_screen):
            self.manager.add_widget(screen)
        root.add_widget(self.manager)
        self.banner = Banner()
        root.add_widget(self.banner)
        self._poll = Clock.schedule_interval(self.refresh, self.poll_interval)
        if self._initial is not None:  # e.g. the demo, when there is no camera
            self.worker.submit(self._initial, self.attach)
        return root

    def _resized(self, _window: object, size: tuple[int, int]) -> None:
        self.scale = theme.ui_scale(*size)

    def on_stop(self) -> None:
        poll = getattr(self, "_poll", None)
        if poll is not None:
            poll.cancel()
        self.worker.close()
        self._close_controller()

    # The poll ---------------------------------------------------------------------------

    def refresh(self, *_: object) -> None:
        """Show what the session has now; errors go to the banner, the app keeps running."""
        screen = self.manager.current_screen
        refresh = getattr(screen, "refresh", None)
        if refresh is None:
            return
        try:
            refresh()
        except Exception as err:  # a session fault must not take the screen down
            text = said(err)
            if text != self._last_error:
                self._last_error = text
                self.show_error(text)
            return
        self._last_error = ""
        view = screen.view if isinstance(screen, GameScreen) else None
        message = view.message if view is not None else ""
        if message != self._last_message:
            self._last_message = message
            if message:
                self.banner.say(plain(message, _names(view)))

    def show_error(self, err: Exception | str) -> None:
        """An error as players read it (no rule ID, no notation), away from the header."""
        text = err if isinstance(err, str) else said(err)
        screen = self.manager.current_screen
        self.banner.say(plain(text, _names(screen.view if isinstance(screen, GameScreen)
                                           else None)))

    def notify(self, text: str, *, keep: bool = False) -> None:
        """``text`` in the banner, not as an error; ``keep``: until tapped (``Banner.say``)."""
        self.banner.say(text, tone="info", keep=keep)

    # Games ----------------------------------------------------------------------------

    def send(self, action: str, *args: object) -> None:
        """A tap for the current game, committed by the session off the main thread. The
        same tap again before the screen shows what the first one did is a finger that
        bounced or tapped twice, not a second move: it is dropped, and the screen says so
        (a second Draw would be the next player's draw; the button greys only once the
        first is answered; two Undos meant as two are tapped again)."""
        controller = self.controller
        if controller is None:
            return
        key = (action, *args)
        if key in self._tapping:
            self.notify(TAPPED_TWICE)
            self._last_message = ""  # the answer to the first, if it says anything, again
            return
        self._tapping.add(key)

        def answered(_result: object) -> None:
            self._tapping.discard(key)
            self.refresh()

        def refused(err: Exception) -> None:
            self._tapping.discard(key)
            self.show_error(err)

        self.worker.submit(lambda: controller.tap(action, *args), answered, refused)

    def begin_game(self, header: dict[str, Any]) -> None:
        self.worker.submit(lambda: self._start_game(header), self.attach)

    def resume_game(self, game_id: int) -> None:
        resume = self._resume_game
        if resume is None:
            return
        self.worker.submit(lambda: resume(game_id), self.attach)

    def attach(self, controller: Controller | None) -> None:
        self._close_controller()
        self.controller = controller
        self.show_game()

    def show_game(self, result_first: bool = True) -> None:
        """The game's screen; a finished game opens on its result (``result_first``)."""
        controller = self.controller
        if controller is None:
            self.manager.current = "start"
            return
        view: TableView | SandsView = controller.view()
        if controller.kind == CALLS_SCREEN:
            if self.sands_screen.controller is not controller:
                self.sands_screen.attach(controller)
        elif self.table_screen.controller is not controller:
            self.table_screen.attach(controller)
        if result_first and view.ended:
            self.game_over(view)
            return
        self.manager.current = controller.kind

    def game_over(self, view: TableView | SandsView) -> None:
        self.gameover_screen.show(view)
        self.manager.current = "gameover"

    def leave_game(self) -> None:
        self.stones_screen.attach(None)
        self._close_controller()
        self.table_screen.attach(None)
        self.sands_screen.attach(None)
        self.manager.current = "start"

    def _close_controller(self) -> None:
        controller, self.controller = self.controller, None
        if controller is None:
            return
        try:
            controller.close()
        except Exception as err:  # leaving must work even when closing fails
            self.show_error(err)

    def load_past_games(self, done: Callable[[Sequence[PastGameEntry]], None]) -> None:
        games = self._games
        if games is None:
            done([])
            return
        self.worker.submit(games, done)

    def export_record(self, game_id: int, done: Callable[[str], None] | None = None) -> None:
        export = self._export_record
        if export is None:
            return
        self.worker.submit(lambda: export(game_id), done or self._record_saved)

    def _record_saved(self, where: str) -> None:
        # a line after where it is says what the record leaves out (a turn not over): the
        # players must save it again later, so it stays until they tap it
        self.notify(f"Game record saved: {where}", keep="\n" in where)

    # Calibration --------------------------------------------------------------------------

    def open_calibration(self) -> None:
        if self.manager.current != "calibration":
            self._before_calibration = self.manager.current
        self.manager.current = "calibration"

    def close_calibration(self) -> None:
        self.manager.current = self._before_calibration

    def open_stones(self) -> None:
        """The stone camera set-up of the Desert Sands game being played."""
        controller = self.controller
        if controller is None or controller.kind != CALLS_SCREEN:
            return
        hooks = stone_hooks(controller)
        if hooks is None:
            return
        self.stones_screen.attach(hooks)
        self.manager.current = "stones"

    def close_stones(self) -> None:
        self.stones_screen.attach(None)
        self.show_game()


def _names(view: TableView | SandsView | None) -> list[str]:
    """The players' names of a view, to name them in messages (none without a view)."""
    if view is None:
        return []
    if isinstance(view, SandsView):
        return list(view.players)
    return [p.name for p in view.players]
