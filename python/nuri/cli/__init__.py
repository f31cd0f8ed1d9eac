"""The ``nuri`` command line. Each subcommand lives in its own module ``cmd_<name>.py`` with
``register(subparsers)``; main.py discovers them, so adding a command touches no shared file."""
