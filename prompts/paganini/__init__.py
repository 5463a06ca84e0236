"""Prompts of the paganini seats (a package only so that the .md files are installed with it)."""
