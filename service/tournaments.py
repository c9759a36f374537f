"""Tournaments API and pages."""
from flask import Blueprint

bp = Blueprint("tournaments", __name__)
