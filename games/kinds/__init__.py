"""The games on offer, one package each: what the site shows and asks of that game's engine.

`base.GameKind` lists everything a game tells the site; games/catalog.py registers each kind.
"""
