"""``python -m mkdocs_selfattn`` is the command line."""

import sys

from mkdocs_selfattn.cli import main

sys.exit(main())
