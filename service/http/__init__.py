"""The HTTP edge: routes, request parsing and the one map from refusals to statuses."""
