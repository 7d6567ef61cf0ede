"""The one error every engine raises for a malformed or illegal action."""


class IllegalAction(ValueError):
    """An action the rules do not allow; the message is a sentence a player can read."""
