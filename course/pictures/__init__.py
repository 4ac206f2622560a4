"""Pictures of boards shared by every part of ``course``: SVG boards and pawn images.

Nothing here changes a game or decides a rule; the pictures only read what they are given.
"""

__all__: list[str] = []  # the pictures are in course.pictures.svg and course.pictures.pawns
