"""The board's web pages: live board, scoreboard, operator, player and simulator (docs/web.md)."""
