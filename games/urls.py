"""Table URLs under /games/."""

from django.urls import include, path

from games.web import (
    chat,
    history,
    lobby,
    moderation,
    rules,
    tables,
    watch,
    yours,
)

app_name = "games"

urlpatterns = [
    path("new/", lobby.new_game, name="new"),
    path("history/", history.history_list, name="history"),
    path("quick/", lobby.quick_night, name="quick"),
    path("rules/<slug:slug>/", rules.how_to_play, name="rules"),
    path("<int:game_id>/", tables.table, name="table"),
    path("<int:game_id>/board/", tables.board, name="board"),
    path("<int:game_id>/join/", tables.join, name="join"),
    path("<int:game_id>/leave/", tables.leave, name="leave"),
    path("<int:game_id>/bots/add/", tables.add_bot, name="add_bot"),
    path("<int:game_id>/bots/remove/", tables.remove_bot, name="remove_bot"),
    path("<int:game_id>/start/", tables.start, name="start"),
    path("<int:game_id>/cancel/", tables.cancel, name="cancel"),
    path("<int:game_id>/play/", tables.play, name="play"),
    path("<int:game_id>/suggest/", tables.suggest, name="suggest"),
    path("<int:game_id>/resign/", tables.resign, name="resign"),
    path("<int:game_id>/take-back/", tables.take_back, name="take_back"),
    path("<int:game_id>/results/close/", tables.close_results, name="close_results"),
    path("<int:game_id>/replay/", history.replay, name="replay"),
    path("<int:game_id>/export.json", history.export_game, name="export"),
    path("<int:game_id>/rematch/", tables.rematch, name="rematch"),
    path("<int:game_id>/rematch/decline/", tables.decline_rematch, name="decline_rematch"),
    path("<int:game_id>/chat/", chat.chat, name="chat"),
    path("<int:game_id>/chat/log/", chat.chat_log, name="chat_log"),
    path("<int:game_id>/chat/mute/", chat.chat_mute, name="chat_mute"),
    path("<int:game_id>/chat/unmute/", chat.chat_unmute, name="chat_unmute"),
    path("<int:game_id>/report/", moderation.report, name="report"),
    path("", include("games.friends.urls")),  # friends/, friends/<name>/<verb>/, <id>/invite/
    path("live/", watch.watch_live, name="live"),
    path("", include("games.tutorial.urls")),  # games:learn, games:tutorial_step
    path("mine/", yours.mine, name="mine"),
    path("<int:game_id>/next/", yours.next_game, name="next_game"),
    path("vacation/", include("games.vacation.urls")),  # games:vacation, games:end_vacation
    path(
        "challenges/", include("games.challenges.urls")
    ),  # games:challenge, games:answer_challenge
    path("inbox/", include("games.notifications.urls")),
]
