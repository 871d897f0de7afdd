"""The ``boardctl`` command line: one module per group of subcommands."""
