"""Errors a user can cause; the CLI turns each into one line on stderr and exit code 2."""


class UsageError(Exception):
    """Bad input: the message names the field and what is allowed."""


class StrategyError(Exception):
    """A strategy returned an action the rules do not allow."""


class BackendError(Exception):
    """The machinery failed (a lost worker, a cluster gone): not the user's input."""
