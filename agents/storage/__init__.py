"""Files on disk that must never lose a game: one writer per file across processes, damaged
logs kept byte for byte, paths shown without the server's directories."""
