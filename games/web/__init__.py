"""The pages: tables and posted moves, history and replays, moderation, forms."""
