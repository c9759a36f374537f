"""One IPv6 host holds a whole /64 (2^64 addresses): charged per full address, it takes
as many computer seats, and as many per-client request budgets, as it likes. A /64 is one
client (as one IPv4 address is)."""

from __future__ import annotations

import time

from tests.bots.test_bot_pool import capped, create  # noqa: F401  (capped: a fixture)


def test_addresses_of_one_ipv6_64_share_the_cap_on_computer_seats(capped):  # noqa: F811
    client, _ = capped
    prefix = f"2001:db8:{int(time.time()) % 65536:x}:{int(time.time() * 1000) % 65536:x}"
    two = [{"seat": 0, "strength": 3}, {"seat": 1, "strength": 3}]
    assert create(client, f"{prefix}::1", two).status_code == 201
    refused = create(client, f"{prefix}::2", [{"seat": 0, "strength": 1}])  # the same host, the next address
    assert refused.status_code == 429, refused.json
    assert refused.json["error"]["code"] == "computer_seats_cap"
    assert create(client, f"2001:db8:ffff:{prefix[-4:]}::1", [{"seat": 0, "strength": 1}]).status_code == 201
