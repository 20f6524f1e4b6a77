"""The ``olc`` command (console script) and ``python -m olc``."""
import sys


def main():
    """Load the command line and run it. Ctrl-C while its modules are still loading ends as
    Ctrl-C during a command does (status 130, nothing printed), not with Python's traceback
    of whatever import it interrupted."""
    try:
        from .cli.app import run
    except KeyboardInterrupt:
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()
