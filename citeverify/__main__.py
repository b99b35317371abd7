import sys

from citeverify.cli import main

sys.exit(main())
