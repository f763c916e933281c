# Board scenarios: keys and taps in against a fake clock; LED frames, display text and journal out.
from scenario import Scenario


def test_boot_shows_new_match():
    s = Scenario()
    try:
        assert "Cut: a card each" in s.screen()
        assert s.journal()[0]["t"] == "setup"
    finally:
        s.close()
