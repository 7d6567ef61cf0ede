"""The public API's knobs. Each is a setting of that name, its default here; the environment
variable of the same name sets it (bakery_site/env.py: feature_knobs)."""

#: Requests one token may make in a minute; past it the API answers 429 with Retry-After.
API_TOKEN_REQUESTS_PER_MINUTE = 120
#: Requests one client address may make in a minute, with any token or none (bots behind one
#: address share it; guessed tokens are counted too).
API_CLIENT_REQUESTS_PER_MINUTE = 300
#: The largest request body the API reads, in bytes; a longer one is refused with 413.
API_BODY_MAX = 16_384
