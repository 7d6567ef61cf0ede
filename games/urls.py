"""Table URLs under /games/."""

from django.urls import path

from games import views, views_history, views_moderation

app_name = "games"

urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("history/", views_history.history_list, name="history"),
    path("quick/", views.quick_night, name="quick"),
    path("<int:game_id>/", views.table, name="table"),
    path("<int:game_id>/board/", views.board, name="board"),
    path("<int:game_id>/join/", views.join, name="join"),
    path("<int:game_id>/leave/", views.leave, name="leave"),
    path("<int:game_id>/bots/add/", views.add_bot, name="add_bot"),
    path("<int:game_id>/bots/remove/", views.remove_bot, name="remove_bot"),
    path("<int:game_id>/start/", views.start, name="start"),
    path("<int:game_id>/cancel/", views.cancel, name="cancel"),
    path("<int:game_id>/play/", views.play, name="play"),
    path("<int:game_id>/resign/", views.resign, name="resign"),
    path("<int:game_id>/take-back/", views.take_back, name="take_back"),
    path("<int:game_id>/results/close/", views.close_results, name="close_results"),
    path("<int:game_id>/replay/", views_history.replay, name="replay"),
    path("<int:game_id>/export.json", views_history.export_game, name="export"),
    path("<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("<int:game_id>/rematch/decline/", views.decline_rematch, name="decline_rematch"),
    path("<int:game_id>/chat/", views.chat, name="chat"),
    path("<int:game_id>/chat/log/", views.chat_log, name="chat_log"),
    path("<int:game_id>/chat/mute/", views.chat_mute, name="chat_mute"),
    path("<int:game_id>/chat/unmute/", views.chat_unmute, name="chat_unmute"),
    path("<int:game_id>/report/", views_moderation.report, name="report"),
]
