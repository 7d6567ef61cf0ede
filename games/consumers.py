"""The table's websocket: joins the game's group and pushes this user's board as HTML."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.boards import Sent, render_changed, render_whole
from games.models import Game
from games.services import group_name
from games.views import INVITES, can_watch


def load_game(game_id: int, user: Any, invited: list[int]) -> Game | None:
    """The game if this user may watch it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_watch(game, user, invited):
        return None
    return game


def fresh(game_id: int) -> Game:
    """The game row as stored now."""
    return Game.objects.get(pk=game_id)


class GameConsumer(AsyncWebsocketConsumer):
    """Sends the whole board on connect, then only the regions that changed."""

    game_id: int
    version: int
    status: str
    prints: Sent

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        session = self.scope.get("session")
        invited = list(session.get(INVITES, [])) if session is not None else []
        game = await database_sync_to_async(load_game)(self.game_id, self.scope["user"], invited)
        if game is None:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
        await self.accept()
        self.prints = {}
        await self.push(game, whole=True)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "prints"):
            await self.channel_layer.group_discard(group_name(self.game_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Moves arrive over HTTP; anything sent here asks for the whole board again."""
        game = await database_sync_to_async(fresh)(self.game_id)
        await self.push(game, whole=True)

    async def game_updated(self, event: dict[str, Any]) -> None:
        """A new version was committed: render and send what changed for this user."""
        if event.get("version", 0) <= self.version:
            return
        game = await database_sync_to_async(fresh)(self.game_id)
        await self.push(game, whole=game.status != self.status)

    async def seat_refreshed(self, event: dict[str, Any]) -> None:
        """This user changed their own screen state in another tab: redraw what changed."""
        if event.get("user") != getattr(self.scope["user"], "pk", None):
            return
        game = await database_sync_to_async(fresh)(self.game_id)
        await self.push(game, whole=False)

    async def push(self, game: Game, *, whole: bool) -> None:
        """Send the board (whole, or the regions whose content moved since the last push)."""
        user = self.scope["user"]
        self.version = game.version
        self.status = game.status
        if whole:
            html, self.prints = await database_sync_to_async(render_whole)(game, user)
            await self.send(text_data=html)
            return
        changed, self.prints = await database_sync_to_async(render_changed)(game, user, self.prints)
        if changed:
            await self.send(text_data="".join(changed.values()))
