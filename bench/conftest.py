"""Benchmarks need the counts they time to be right first: each benchmark checks its node or
ply counts against the test suite's numbers before timing."""
