"""The arbiter's procedures around the scoring: calls at a table and their rulings, claims."""
