"""``python -m cardsim`` is the ``cardsim`` command (for environments without the script)."""
from cardsim.simulator.cli import main

if __name__ == "__main__":
    main()
