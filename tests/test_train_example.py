"""The training example (``examples/train_rialto.py``) runs end to end on a tiny budget: it
trains, saves a policy that loads and plays legal moves, measures its learning curve and
draws it. How strong the full run gets is in docs/research.md, not tested here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "train_rialto.py"


@pytest.mark.slow
def test_the_training_example_makes_a_policy_and_its_curve(tmp_path: Path):
    pytest.importorskip("sb3_contrib", reason="needs the [train] extra: pip install -e '.[train]'")
    out = tmp_path / "out"
    command = [sys.executable, str(SCRIPT), "--timesteps", "2000", "--eval-games", "4", "--out", str(out)]
    command += ["--curve-every", "1000", "--curve-games", "2", "--envs", "2", "--quiet"]
    # this checkout's package, not whichever one is installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "against RandomBot" in done.stdout and str(out) in done.stdout

    result = json.loads((out / "result.json").read_text())
    assert result["games"] == 4 == result["wins"] + result["ties"] + result["losses"]
    assert result["timesteps"] >= 2000 and 0.0 <= result["ci95"][0] <= result["win_rate"] <= result["ci95"][1] <= 1.0
    curve = json.loads((out / "curve.json").read_text())
    steps = [point["timesteps"] for point in curve]
    assert steps[0] == 0 and steps == sorted(set(steps)) and len(steps) >= 3
    assert all(point["games"] == 2 for point in curve)
    assert (out / "curve.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    _plays_legal_moves(out / "policy.zip")


def _plays_legal_moves(policy: Path) -> None:
    """The saved policy loads and picks only legal actions through a game's first moves."""
    from sb3_contrib import MaskablePPO

    sys.path.insert(0, str(SCRIPT.parent))
    try:
        from train_rialto import seat_env
    finally:
        sys.path.remove(str(SCRIPT.parent))
    model = MaskablePPO.load(policy, device="cpu")
    env = seat_env()
    observation, _ = env.reset(seed=3)
    for _ in range(30):
        mask = env.action_masks()
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        observation, _, over, _, _ = env.step(int(action))
        if over:
            break
