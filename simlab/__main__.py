"""``python -m simlab``: the command line."""

from simlab.cli import main

if __name__ == "__main__":
    main()
