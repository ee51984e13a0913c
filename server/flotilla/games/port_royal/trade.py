"""Phase 2 — Trade & Hire (spec §4.6): windows, income, trading and hiring."""

from __future__ import annotations

from flotilla.rules import Seat

from .cards import CARDS, FRIGATE_FOE, GALLEON_FOE, CardId, Colour, Role
from .contracts import advance_prep
from .events import (
    CoinReason,
    DiscoverStopped,
    PersonHired,
    ShipTraded,
    WindowClosed,
    WindowOpened,
)
from .state import Window
from .stats import count_role, count_role_colour, harbor_colours, harbor_ships, hire_price
from .tables import (
    ADMIRAL_COINS,
    ADMIRAL_MIN_HARBOR,
    ALLOWANCE_BY_COLOURS,
    NON_ACTIVE_FEE,
    SPECIAL_SHIP_GIFT,
    VICE_ADMIRAL_HARBOR,
)
from .turns import end_turn
from .work import Work

FOE_BY_COLOUR = {Colour.RED: FRIGATE_FOE, Colour.BLACK: GALLEON_FOE}


def stop(w: Work) -> None:
    """Spec §4.5/§4.6: fix the base allowance and open the active player's window."""
    w.base_allowance = ALLOWANCE_BY_COLOURS[harbor_colours(w.harbor)]
    w.emit(DiscoverStopped(w.active, w.base_allowance))
    open_window(w, w.active)


def open_window(w: Work, seat: Seat) -> None:
    """Window-start income and allowance (spec §4.6 steps 1-2, ruling R6)."""
    display = w.players[seat].display
    size = len(w.harbor)
    w.gain(
        seat,
        ADMIRAL_COINS * count_role(display, Role.ADMIRAL) if size >= ADMIRAL_MIN_HARBOR else 0,
        CoinReason.ADMIRAL,
    )
    w.gain(
        seat,
        count_role(display, Role.VICE_ADMIRAL) if size in VICE_ADMIRAL_HARBOR else 0,
        CoinReason.VICE_ADMIRAL,
    )
    w.gain(seat, max(0, harbor_ships(w.harbor) - 1) * count_role(display, Role.GUNNER), CoinReason.GUNNER)
    if seat != w.active and size == 0:
        w.gain(seat, count_role(display, Role.JESTER), CoinReason.JESTER)
    base = w.base_allowance if seat == w.active else 1
    allowance = base + count_role(display, Role.GOVERNOR)
    w.phase = Window(seat, allowance)
    w.emit(WindowOpened(seat, allowance))


def close_window(w: Work, seat: Seat) -> None:
    """Pass: the next seat's window, or clean-up after the last one."""
    w.emit(WindowClosed(seat))
    nxt = Seat((seat + 1) % w.n)
    if nxt == w.active:
        end_turn(w)
    else:
        open_window(w, nxt)


def trade(w: Work, seat: Seat, card: CardId, gift_to: Seat | None, refuse: bool) -> None:
    """Spec §4.6.1 (legality checked by the caller)."""
    assert isinstance(w.phase, Window)
    info = CARDS[card]
    w.harbor.remove(card)
    w.discard.append(card)
    w.emit(ShipTraded(seat, card, refuse, gift_to))
    p = w.players[seat]
    colour = info.colour
    assert colour is not None
    if not refuse:
        w.gain(seat, info.coins + count_role_colour(p.display, Role.TRADER, colour), CoinReason.SHIP)
        if info.special and gift_to is not None:
            w.gain(gift_to, SPECIAL_SHIP_GIFT, CoinReason.SPECIAL_SHIP)
    if seat != w.active:
        w.pay_player(seat, w.active, NON_ACTIVE_FEE, CoinReason.FEE)
    allowance = w.phase.allowance - 1 + count_role_colour(p.display, Role.CLERK, colour)
    w.phase = Window(seat, allowance)
    if refuse:
        advance_prep(w, seat, FOE_BY_COLOUR[colour])


def hire(w: Work, seat: Seat, card: CardId) -> None:
    """Spec §4.6.2 (legality checked by the caller)."""
    assert isinstance(w.phase, Window)
    p = w.players[seat]
    price = hire_price(p.display, card)
    w.harbor.remove(card)
    w.emit(PersonHired(seat, card, price))
    w.pay_bank(seat, price, CoinReason.HIRE)
    if seat != w.active:
        w.pay_player(seat, w.active, NON_ACTIVE_FEE, CoinReason.FEE)
    p.display.append(card)
    w.phase = Window(seat, w.phase.allowance - 1)
