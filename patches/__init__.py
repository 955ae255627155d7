"""Stage package; see README."""
