"""The baseline for bench/append.py: a bare Flask endpoint that does one XADD."""

import json
import os

import redis
from flask import Flask, request

app = Flask(__name__)
client = redis.Redis.from_url(os.environ["REDIS_URL"], decode_responses=True)


@app.post("/append/<game_id>")
def append(game_id):
    body = request.get_json()
    seq = client.xadd(f"bare:{{{game_id}}}:events", {"e": json.dumps(body)})
    return {"seq": seq}, 201
