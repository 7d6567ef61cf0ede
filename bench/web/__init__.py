"""make bench-web: a load generator that plays the site over HTTP and websockets like browsers."""
