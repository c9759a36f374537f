"""Web pages: lobby, play table, replay viewer, referee console, verify."""
from flask import Blueprint

bp = Blueprint("web", __name__)
