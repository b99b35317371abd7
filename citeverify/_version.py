"""The package version, kept in one place."""

__version__ = "0.1.0"
CONTRACT_VERSION = "1.1.0"
