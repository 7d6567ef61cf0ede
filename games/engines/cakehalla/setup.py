"""What a Cakehalla table starts from: the bakers, its options, and its setup (the piles top first,
the face-up customers, and the bakers' holdings for a game started part way, as a tutorial's);
`deal` writes the setup a seed deals, and `new_game` the state a seed (or a setup) starts."""

from __future__ import annotations

from collections.abc import Mapping

from games.engines import rng
from games.engines.cakehalla.cards import (
    CARD_INDEX,
    CARDS,
    CUSTOMER_INDEX,
    CUSTOMERS,
    TIER_CARDS,
    TIERS,
    TOKEN_NAMES,
)
from games.engines.cakehalla.refusals import refused
from games.engines.cakehalla.shapes import Setup
from games.engines.cakehalla.state import (
    COUNTER_SPACES,
    EMPTY,
    HAND_LIMIT,
    MARKET_SIZES,
    MAX_BAKERS,
    MIN_BAKERS,
    RESERVE_LIMIT,
    SAFFRON_SUPPLY,
    WINNING_POINTS,
    Baker,
    State,
)
from games.engines.errors import IllegalAction


def _card_indices(ids: object, not_a_list: IllegalAction, tier: int | None = None) -> list[int]:
    """The card indices of a setup's list of card ids (of that tier, when one is given)."""
    if not isinstance(ids, list):
        raise not_a_list
    out = []
    for card_id in ids:
        index = CARD_INDEX.get(card_id) if isinstance(card_id, str) else None
        if index is None or (tier is not None and CARDS[index].tier != tier):
            if tier is None:
                raise refused("not-a-card", card=repr(card_id))
            raise refused("not-a-tier-card", card=repr(card_id), tier=tier)
        out.append(index)
    return out


def _setup_pile(tier: int, ids: object) -> tuple[int, ...]:
    """A pile given by the setup, checked to hold cards of its own tier once each."""
    pile = _card_indices(ids, refused("pile-not-list", tier=tier), tier)
    if len(set(pile)) != len(pile):
        raise refused("pile-twice", tier=tier)
    return tuple(pile)


def _setup_customers(ids: object, wanted: int) -> tuple[int, ...]:
    """Face-up customers given by the setup."""
    if not isinstance(ids, list) or len(ids) != wanted:
        raise refused("customers-count", wanted=wanted)
    out = []
    for cid in ids:
        index = CUSTOMER_INDEX.get(cid) if isinstance(cid, str) else None
        if index is None:
            raise refused("not-a-customer", customer=repr(cid))
        out.append(index)
    if len(set(out)) != len(out):
        raise refused("customer-twice")
    return tuple(out)


def checked_setup(setup: object) -> Mapping[str, object]:
    """A setup that gives piles, customers or bakers and nothing else; IllegalAction otherwise."""
    if setup is None:
        return {}
    if not isinstance(setup, dict):
        raise refused("setup-not-dict")
    if not setup:
        raise refused("setup-empty")
    if set(setup) - {"piles", "customers", "bakers"}:
        raise refused("setup-keys")
    if "piles" in setup:
        given = setup["piles"]
        if not isinstance(given, dict) or not given or set(given) - {"1", "2", "3"}:
            raise refused("setup-pile-keys")
    return setup


def checked_options(options: object) -> None:
    """Cakehalla has no options: None or {} only."""
    if options is None:
        return
    if not isinstance(options, dict):
        raise refused("options-not-dict")
    if options:
        name = sorted(str(key) for key in options)[0]
        raise refused("no-options", name=repr(name))


def checked_players(players: object) -> int:
    """The number of bakers, 2 to 4."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise refused("bakers-not-whole")
    if not MIN_BAKERS <= players <= MAX_BAKERS:
        raise refused("bakers-count")
    return players


def _setup_tokens(given: object) -> tuple[int, ...]:
    """A baker's ingredients given by the setup ({name: count}), saffron last."""
    if not isinstance(given, dict):
        raise refused("tokens-not-map")
    tokens = [0] * len(TOKEN_NAMES)
    for name, n in given.items():
        if name not in TOKEN_NAMES or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise refused("token-not-count", name=repr(name), n=repr(n))
        tokens[TOKEN_NAMES.index(name)] = n
    if sum(tokens) > HAND_LIMIT:
        raise refused("tokens-over-limit", limit=HAND_LIMIT)
    return tuple(tokens)


def _setup_cards(ids: object, what: str) -> tuple[int, ...]:
    """A baker's bought or reserved cards given by the setup (card ids)."""
    return tuple(_card_indices(ids, refused(f"{what}-not-list")))


def setup_bakers(players: int, setup: Mapping[str, object]) -> tuple[Baker, ...]:
    """The bakers' starting holdings: given (a game started part way, as a tutorial's), else
    empty. Discounts and points follow from the bought cards; reserved cards are face up."""
    if "bakers" not in setup:
        return (Baker((0,) * 6, (0,) * 5, 0, (), (), ()),) * players
    given = setup["bakers"]
    if not isinstance(given, list) or len(given) != players:
        raise refused("bakers-given", players=players)
    bakers = []
    for holding in given:
        if not isinstance(holding, dict) or set(holding) - {"tokens", "bought", "reserved"}:
            raise refused("baker-keys")
        bought = _setup_cards(holding.get("bought", []), "bought")
        reserved = _setup_cards(holding.get("reserved", []), "reserved")
        if len(reserved) > RESERVE_LIMIT:
            raise refused("reserves-over-limit", limit=RESERVE_LIMIT)
        discounts = [0] * 5
        for c in bought:
            discounts[CARDS[c].discount] += 1
        bakers.append(
            Baker(
                _setup_tokens(holding.get("tokens", {})),
                tuple(discounts),
                sum(CARDS[c].points for c in bought),
                bought,
                tuple((c, False) for c in reserved),
                (),
            )
        )
    held = [c for b in bakers for c in (*b.bought, *(r for r, _ in b.reserved))]
    if len(set(held)) != len(held):
        raise refused("card-given-twice")
    if any(b.points >= WINNING_POINTS for b in bakers):
        raise refused("points-too-many", points=WINNING_POINTS)
    return tuple(bakers)


def dealt(
    players: int, seed: int, setup: Mapping[str, object], held: frozenset[int] = frozenset()
) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """The piles (top first, counter cards included) and customers: given, or from the seed
    (a shuffled pile leaves out the cards the bakers hold)."""
    given = setup.get("piles")  # checked_setup let only a dict keyed by tier through
    given_piles: Mapping[str, object] = given if isinstance(given, dict) else {}
    stream = rng.seed_state(seed)
    piles = []
    for tier in TIERS:
        if str(tier) in given_piles:
            piles.append(_setup_pile(tier, given_piles[str(tier)]))
        else:
            shuffled, stream = rng.shuffled(TIER_CARDS[tier], stream)
            piles.append(tuple(c for c in shuffled if c not in held))
    if "customers" in setup:
        customers = _setup_customers(setup["customers"], players + 1)
    else:
        drawn, stream = rng.shuffled(range(len(CUSTOMERS)), stream)
        customers = tuple(drawn[: players + 1])
    return piles, customers


# Which rules a game was played under: stored with every game at its start. Bump it with any
# change that plays a stored game differently (the golden games in tests/ say when).
RULES_VERSION = 1


def deal(players: int, *, seed: int, options: Mapping[str, object] | None = None) -> Setup:
    """The setup the seed deals: every pile whole, top first, and the face-up customers."""
    checked_players(players)
    checked_options(options)
    piles, customers = dealt(players, rng.checked_seed(seed), {})
    by_tier = zip(TIERS, piles, strict=True)
    return {
        "piles": {str(tier): [CARDS[c].id for c in pile] for tier, pile in by_tier},
        "customers": [CUSTOMERS[c].id for c in customers],
    }


def new_game(
    players: int,
    *,
    seed: int,
    options: Mapping[str, object] | None = None,
    setup: Mapping[str, object] | None = None,
) -> State:
    """A new table for 2 to 4 bakers, dealt from the seed unless the setup says otherwise."""
    checked_players(players)
    seed = rng.checked_seed(seed)
    checked_options(options)
    setup = checked_setup(setup)
    bakers = setup_bakers(players, setup)
    held = frozenset(c for b in bakers for c in (*b.bought, *(r for r, _ in b.reserved)))
    piles, customers = dealt(players, seed, setup, held)
    if held & {c for pile in piles for c in pile}:
        raise refused("held-card-in-pile")

    counter = []
    for i, pile in enumerate(piles):
        face_up = pile[:COUNTER_SPACES]
        counter.append(face_up + (EMPTY,) * (COUNTER_SPACES - len(face_up)))
        piles[i] = pile[COUNTER_SPACES:]

    size = MARKET_SIZES[players]
    supply = (size, size, size, size, size, SAFFRON_SUPPLY)
    market = tuple(n - sum(b.tokens[i] for b in bakers) for i, n in enumerate(supply))
    if min(market) < 0:
        raise refused("tokens-over-market")
    state = State.__new__(State)
    state.players = players
    state.rng = rng.seed_state(seed)  # the table's own stream; no rule draws from it yet
    state.market = market
    state.piles = tuple(piles)
    state.counter = tuple(counter)
    state.customers = customers
    state.bakers = bakers
    state.turn = 0
    state.round = 1
    state.turns_done = 0
    state.pending = None
    state.final = False
    state.passes = 0
    state.over = False
    state.log = None
    return state
