"""Pure rules engines. No I/O, no clock, no LLM: dice arrive as actions from outside."""
