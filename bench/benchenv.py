"""Settings of the bench/ scripts from the environment, checked before any
run: a value that is not what the script needs is one line on stderr and
exit code 2, not a traceback half-way through."""

import os
import re
import sys


def _fail(name, value, what):
    sys.stderr.write("%s: %s=%r: %s\n" % (os.path.basename(sys.argv[0]), name, value, what))
    sys.exit(2)


def env_int(name, default, minimum=1):
    """A whole number >= minimum (default when unset)."""
    value = os.environ.get(name, str(default))
    try:
        n = int(value)
    except ValueError:
        n = None
    if n is None or n < minimum:
        _fail(name, value, "must be a whole number of at least %d" % minimum)
    return n


def env_count(name, default, minimum=1):
    """Like env_int, as the text handed on to the tools' command lines."""
    return str(env_int(name, default, minimum))


def env_regex(name):
    """A regular expression (default: matches everything)."""
    value = os.environ.get(name, "")
    try:
        return re.compile(value)
    except re.error as e:
        _fail(name, value, "not a regular expression (%s)" % e)
