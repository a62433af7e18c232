"""`ludex view LOG` serves the viewer over a log file on a loopback port, with its assets."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import httpx
from audit_helpers import new_service, play_to_end
from service_harness import ROOT, free_port, write_log


def test_ludex_view_serves_the_page_data_and_steps_of_a_log_file(tmp_path):
    service, store = new_service(tmp_path)
    game = play_to_end(service, "hanabi", "view cli", random.Random(5), seats=2)
    path = write_log(tmp_path / "game.jsonl", [service.export_header(game["game_id"]), *service.export(game["game_id"])])
    store.dispose()
    (tmp_path / "kept.json").write_text(json.dumps(game["last"]))  # a player's saved move response
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "ludex.service_commands", "view", str(path), "--port", str(port),
                             "--no-open", "--receipt", str(tmp_path / "kept.json")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                home = httpx.get(url + "/", follow_redirects=True, timeout=5)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.1)
        assert home.status_code == 200 and str(home.url).endswith(f"/games/{game['game_id']}/viewer")
        assert 'src="/viewer/assets/viewer.js"' in home.text and "http" not in home.text.split("<body")[1]
        assert httpx.get(url + "/viewer/assets/viewer.js").headers["content-type"].startswith("text/javascript")
        data = httpx.get(f"{url}/games/{game['game_id']}/viewer/data").json()
        assert data["audit"]["verified"] and data["any_seat"] and data["seed"] == "view cli"
        assert any(c["name"] == "receipt" and c["status"] == "passed" for c in data["audit"]["checks"])
        step = httpx.get(f"{url}/games/{game['game_id']}/viewer/step", params={"at": 2, "seat": "all"}).json()
        assert step["at"] == 2 and all("components" in z for z in step["view"]["zones"].values())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
