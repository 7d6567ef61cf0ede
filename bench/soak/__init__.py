"""make soak: does one Daphne process's memory level off over an hour of the site's evening?

See __main__.py for what the people do and the sizes read from the environment.
"""
