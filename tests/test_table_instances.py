"""Several instances behind one proxy: each draws its codes' first character from its own share of the
alphabet, so codes of different instances never collide and a code tells its instance."""

from __future__ import annotations

import pytest

from scorekeeper.table.codes import ALPHABET, Instance, instance_of, new_code, share


@pytest.mark.parametrize("count", [1, 2, 3, 25])
def test_shares_cover_the_alphabet_once_and_codes_tell_their_instance(count: int) -> None:
    assert "".join(share(n, count) for n in range(1, count + 1)) == ALPHABET
    seen: dict[str, int] = {}
    for number in range(1, count + 1):
        for _ in range(50):
            code = new_code(seen, instance=Instance(number, count))
            assert code not in seen and instance_of(code, count) == number
            assert Instance(number, count).owns(code.lower())
            seen[code] = number


def test_instance_is_parsed_and_checked() -> None:
    assert Instance.parse("2/3") == Instance(2, 3) and Instance.parse(None) == Instance()
    for wrong in ("3/2", "0/2", "a/b", "2", "1/26"):
        with pytest.raises(ValueError):
            Instance.parse(wrong)
