"""``python -m veletas.cli``."""

import sys

from veletas.cli import main

sys.exit(main())
