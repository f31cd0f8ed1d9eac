"""python -m nuri.cli: the same as the installed ``nuri`` command."""

import sys

from nuri.cli.main import main

sys.exit(main())
