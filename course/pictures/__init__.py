"""Pictures of boards shared by every part of ``course``: SVG boards and pawn images."""
