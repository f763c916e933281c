# The whole firmware in the simulator with a piezo in its board file: the menu's Sound turned on, then
# each point pegged is one tone on the sim's piezo (the trace logs each).
import json
import os
import re

from test_sim_match import ROOT, run_sim

from board import settings

REFERENCE = os.path.join(ROOT, "hardware", "board.json")


def _board_with_a_piezo(tmp_path):
    with open(REFERENCE) as f:
        raw = json.load(f)
    raw["pins"]["piezo"] = 22
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw))
    return str(path)


def test_the_sim_s_piezo_sounds_a_tone_a_point_once_the_menu_turns_the_sound_on(tmp_path):
    script = tmp_path / "sound.script"
    menu = ["key MENU"] * (1 + settings.ORDER.index("sound"))  # open at the first item, on to Sound
    script.write_text(
        "\n".join(
            menu
            + ["key OK", "key UNDO", "+500"]  # Sound: on
            + ["cards 4H TD", "key OK", "+500", "cards 5S", "+500", "cards 5H", "+400 cards TH"]  # 15 for 2
            + ["+400 cards 5C", "+400 cards 6C", "+400 cards 5D", "+3000"]  # 31 for 2
            + ["expect score 2 2"]
        )
        + "\n"
    )
    board = _board_with_a_piezo(tmp_path)
    result = run_sim(tmp_path / "data", "--trace", "--board", board, "--script", str(script))
    out = result.stdout + result.stderr
    assert result.returncode == 0 and "expectations: 1 checked, 0 failed" in out, out[-3000:]
    assert re.findall(r"piezo: (\d+) Hz", out) == ["2093"] * 4, out[-3000:]  # the fifteen's two, the 31's two
