"""Computer opponents: search over the pure rules, seeing only their seat's view."""
