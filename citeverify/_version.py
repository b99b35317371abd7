"""The package version, kept in one place."""

__version__ = "0.1.0"
CONTRACT_VERSION = "1.1.0"
#: The name on the package index. The import package and the command are ``citeverify``; the
#: index's ``citeverify`` is an unrelated project, so ``--version`` prints this name to tell
#: the two apart.
DISTRIBUTION = "citeverify-legal"
