"""Independent pure-Python reference implementations used by the tests."""
