"""Prompts of the fubar seats (a package only so that the .md files are installed with it)."""
