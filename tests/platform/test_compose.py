"""The compose file is a product (CI cannot run Docker, so its structure is checked here):
an image built from deploy/Dockerfile (multi-stage, wheels baked in, not root), named
volumes for the data and the keys, a Redis with a password and AOF, healthchecks and
restart policies everywhere, start-up ordered on health, one reverse proxy in front."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_every_service_is_healthchecked_restarted_and_started_after_what_it_needs():
    services = compose()["services"]
    assert set(services) == {"redis", "web", "proxy"}
    for name, service in services.items():
        assert service["restart"] in ("unless-stopped", "always"), name
        assert service["healthcheck"]["test"], name
    assert services["web"]["depends_on"] == {"redis": {"condition": "service_healthy"}}
    assert services["proxy"]["depends_on"] == {"web": {"condition": "service_healthy"}}


def test_the_web_image_is_built_not_installed_at_each_start():
    web = compose()["services"]["web"]
    assert web["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    assert "command" not in web and "pip" not in str(web)
    mounts = [m.split(":") for m in web["volumes"]]
    assert [m[:2] for m in mounts] == [["keys", "/var/lib/boardgames"]], "a named volume, no bind-mounted checkout"
    assert web["environment"]["DATA_DIR"] == "/var/lib/boardgames"
    assert "ports" not in web, "reached through the proxy only"
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM .*$", dockerfile, re.M)
    assert len(stages) == 2 and " AS wheels" in stages[0]
    final = dockerfile.rpartition(stages[1] + "\n")[2]
    assert "--no-index" in final and "pip wheel" not in final, "the final stage installs the baked wheels offline"
    assert re.search(r"^USER boardgames$", final, re.M) and "useradd" in final
    assert "HEALTHCHECK" in final


def test_redis_has_a_password_and_aof_and_the_app_its_url():
    services = compose()["services"]
    redis, web = services["redis"], services["web"]
    command = " ".join(redis["command"])
    assert "--requirepass" in command and "protected-mode" not in command
    assert "./redis.conf:/usr/local/etc/redis/redis.conf:ro" in redis["volumes"]
    assert "redis-data:/data" in redis["volumes"]
    conf = (DEPLOY / "redis.conf").read_text()
    assert "\nappendonly yes\n" in conf and "\nappendfsync always\n" in conf and "noeviction" in conf
    port = re.search(r"^port (\d+)$", conf, re.M).group(1)
    assert web["environment"]["REDIS_URL"].startswith("redis://:${REDIS_PASSWORD")
    assert web["environment"]["REDIS_URL"].endswith(f"@redis:{port}/0")
    assert "REDIS_DURABILITY_CHECK" not in web["environment"], "the check stays on"


def test_a_proxy_in_front_with_trusted_proxies_set():
    services = compose()["services"]
    proxy = services["proxy"]
    assert proxy["ports"] == ["80:80"]
    assert services["web"]["environment"]["TRUSTED_PROXIES"] == "1"
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert "proxy_pass http://web:8000;" in nginx and "X-Forwarded-For" in nginx
    assert "location = /metrics" in nginx


def test_volumes_are_named():
    file = compose()
    assert set(file["volumes"]) == {"redis-data", "keys"}
    for service in file["services"].values():
        for mount in service.get("volumes", []):
            source = mount.split(":")[0]
            assert source in file["volumes"] or mount.endswith(":ro"), mount
