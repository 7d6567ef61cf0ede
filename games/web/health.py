"""The load balancer's probe: /healthz."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from games.groups import layer_answers
from games.live import drain


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database and the channel layer answer; 503 "draining" once this process is
    stopping (games/live/drain.py), so a balancer sends its work elsewhere first."""
    if drain.draining():
        return JsonResponse({"ok": False, "draining": True}, status=503)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        layer_answers()
    except Exception as exc:
        return JsonResponse({"ok": False, "error": type(exc).__name__}, status=503)
    return JsonResponse({"ok": True})
