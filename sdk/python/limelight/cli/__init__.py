"""``limelight.cli``: the ``limelight`` command, a publisher's path from an empty folder to a running
service (docs/publishing.md). Apart from the client (``limelight``) and the serving library
(``limelight.serve``): it uses the client's one HTTP transport and imports the serving library only
to scaffold and simulate.
"""

from .main import main

__all__ = ["main"]
