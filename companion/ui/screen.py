"""What the Nizam, Pearl of the East and Desert Sands screens share: a controller polled for
its view, a view shown only when it changed, taps sent on, and the game-over screen shown
the first time a view says the game has ended."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from kivy.uix.screenmanager import Screen

from companion.view import GameController, SandsView, TableView

from .widgets import ChoicePopup, running_app

C = TypeVar("C", bound=GameController[Any])
"""The screen's controller protocol (``companion.view``)."""
V = TypeVar("V", TableView, SandsView)
"""The view its controller gives."""


class GameScreen(Screen, Generic[C, V]):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.controller: C | None = None
        self.view: V | None = None
        self._over_shown = False

    def attach(self, controller: C | None) -> None:
        """Show this controller's game (None: none)."""
        self.controller = controller
        self.view = None
        self._over_shown = False
        self.attached()
        self.refresh()

    def attached(self) -> None:
        """Forget what the last game left on screen."""

    def refresh(self) -> None:
        """Polled by the app on the main thread."""
        if self.controller is None:
            return
        view: V = self.controller.view()
        if view is self.view or view == self.view:
            return
        self.view = view
        self.show(view)
        if view.ended and not self._over_shown:
            self._over_shown = True
            running_app().game_over(view)

    def show(self, view: V) -> None:
        raise NotImplementedError

    def send(self, action: str, *args: object) -> None:
        running_app().send(action, *args)

    def menu_choices(self) -> list[tuple[str, Callable[[], None]]]:
        return []

    def open_menu(self) -> None:
        app = running_app()
        choices = [("Back to the game", lambda: None), *self.menu_choices(),
                   ("Leave this game (it is saved)", app.leave_game)]
        ChoicePopup("Menu", choices, size_hint=(0.7, 0.8)).open()
