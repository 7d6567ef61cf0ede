"""Reviews of finished games: each decision of one seat weighed by the game's master bot, from
what that seat knew at that moment (models, services, the lane that works them, pages)."""
