"""Schemathesis against the generated schema: every operation with generated input (good and
bad), no 5xx, every answer as the schema says. A few examples each, so it takes seconds."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

from accounts import tokens
from accounts.models import User

EXAMPLES = 6

pytestmark = pytest.mark.django_db(transaction=True)  # the WSGI app commits as a server does


@pytest.fixture
def token(transactional_db: None, settings: Any) -> str:
    """A token of every scope, let ask as often as the examples need."""
    settings.API_TOKEN_REQUESTS_PER_MINUTE = 10_000
    settings.API_CLIENT_REQUESTS_PER_MINUTE = 10_000
    person = User.objects.create_user(username="alice", password="a-long-baking-secret")
    return tokens.make(person.pk, "schemathesis", list(tokens.SCOPES), None).token


schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_its_schema_says(case: Any, token: str) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {token}"})
