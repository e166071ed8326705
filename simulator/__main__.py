"""``python -m simulator`` is the ``cardsim`` command (for environments without the script)."""
from simulator.cli import main

if __name__ == "__main__":
    main()
