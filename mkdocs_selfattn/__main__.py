"""``python -m mkdocs_selfattn`` is the command line."""

import sys

from mkdocs_selfattn.cli.main import main

sys.exit(main())
