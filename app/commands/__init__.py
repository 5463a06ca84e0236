"""One module per `storytable` subcommand.

Each module defines `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`. Heavy
imports (Chroma, LangChain, Streamlit) happen inside `run`, so `storytable --help` stays fast.
"""
