"""The public API under /api/ (django-ninja): a person's programs and bots reach Bakehouse with a
personal access token (accounts/tokens.py). See docs/architecture.md, "The public API"."""
