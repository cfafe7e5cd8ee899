"""The step page in a real browser: scripts/screenshot_steps.py opens ``explain --format html``'s
page at step 1 and at the last step in headless Chromium (skipped where there is none), and
the screenshots are real pictures of the page as its script left it."""

import json
import subprocess
import sys

import pytest

from conftest import ROOT, SMALL

sys.path.insert(0, str(ROOT / "scripts"))
from screenshot_steps import find_chromium  # noqa: E402

pytestmark = pytest.mark.skipif(find_chromium() is None, reason="no chromium on PATH")


def test_step_one_and_the_last_step_are_screenshotted(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "screenshot_steps.py"), SMALL,
                           "--out", str(tmp_path), "--size", "700x360"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    shots = [json.loads(line) for line in done.stdout.splitlines()]
    assert [s["step"] for s in shots] == [1, 7]  # SMALL's path has 7 steps
    for shot in shots:
        assert shot["problems"] == []  # the page showed that step: counter, colours, marks
        assert (shot["width"], shot["height"]) == (700, 360) and shot["colours"] > 50
        assert (tmp_path / f"step-{shot['step']}.png").stat().st_size == shot["bytes"]
    assert shots[0]["pixels"] != shots[1]["pixels"]  # the grid changed between the steps
