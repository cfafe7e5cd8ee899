"""``python -m satdoku`` and the ``satdoku`` command (its entry point): Ctrl-C while the
command line is still being imported ends as it does later, one line and exit 130, not a
traceback."""

import sys


def main() -> None:
    try:
        from .cli import run
    except KeyboardInterrupt:
        from .model.result import EXIT_INTERRUPTED
        sys.stderr.write("interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    run()


if __name__ == "__main__":
    main()
