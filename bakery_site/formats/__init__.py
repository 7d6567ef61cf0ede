"""The site's own date and number formats, where they differ from Django's for a language."""
