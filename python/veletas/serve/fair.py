"""The server's searches shared fairly among its clients.

A server runs a few searches at once (``--bot-workers``). Taken first come,
first served, one client that asks for ninety evaluations makes everyone
else wait for all ninety. :class:`FairShare` queues the searches per client
(its address) and gives each slot that frees up to the next client in
turn, so that a client waits for at most one search of each other client
that is waiting too, however many those ask for.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator

from veletas._checks import shown

__all__ = ["FairShare"]


class FairShare:
    """At most ``capacity`` holders at once; waiters are served one client
    after another in turn (round robin), each client's own in order.

    Made and used in one event loop (no locks: every step is synchronous
    between two awaits).
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be 1 or more, not {shown(capacity)}")
        self.capacity = capacity
        self.busy = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def waiting(self, client: str | None = None) -> int:
        """How many wait: those of ``client``, or of every client."""
        if client is not None:
            return len(self._waiting.get(client, ()))
        return sum(len(queue) for queue in self._waiting.values())

    @contextlib.asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """Holds one slot for the ``async with`` block, once ``client``'s turn comes."""
        if self.busy < self.capacity and not self._waiting:
            self.busy += 1
        else:
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, deque()).append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._release()  # handed a slot just as it was cancelled
                else:
                    self._forget(client, turn)
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        """Hands the freed slot to the next client in turn, or frees it."""
        while self._waiting:
            client, queue = next(iter(self._waiting.items()))
            turn = queue.popleft()
            if queue:
                self._waiting.move_to_end(client)  # its next search waits its turn
            else:
                del self._waiting[client]
            if not turn.cancelled():
                turn.set_result(None)
                return
        self.busy -= 1

    def _forget(self, client: str, turn: asyncio.Future[None]) -> None:
        queue = self._waiting.get(client)
        if queue is not None:
            with contextlib.suppress(ValueError):
                queue.remove(turn)
            if not queue:
                del self._waiting[client]
