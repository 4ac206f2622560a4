"""A short "tock" when a disc is placed (off by default), made here rather than shipped as a file.

This module owns the sound and the small widget that plays it; it never reads or
changes a game (the board widget says when to play it).

>>> wav = move_sound()
>>> wav[:4], wav[8:12]
(b'RIFF', b'WAVE')
"""

from __future__ import annotations

import base64
import io
import math
import struct
import wave

import ipywidgets

RATE = 22050


def move_sound(frequency: float = 520.0, seconds: float = 0.07, volume: float = 0.5) -> bytes:
    """A mono 16-bit WAV of a quickly fading tone: the sound of a disc put down.

    ``frequency`` in hertz, ``seconds`` long, ``volume`` from 0 to 1.
    """
    count = int(RATE * seconds)
    samples = []
    for i in range(count):
        t = i / RATE
        fade = math.exp(-t * 60)
        samples.append(int(32767 * volume * fade * math.sin(2 * math.pi * frequency * t)))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{count}h", *samples))
    return buffer.getvalue()


class SoundPlayer:
    """An invisible HTML widget that plays the move sound on :meth:`play` when sound is on.

    Each play puts a fresh ``<audio autoplay>`` element in the page (a counter
    makes the HTML differ each time, so the browser really replaces it).
    With sound off, nothing is sent at all.
    """

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        self.plays = 0
        self._source = "data:audio/wav;base64," + base64.b64encode(move_sound()).decode("ascii")
        self.widget = ipywidgets.HTML(value="", layout=ipywidgets.Layout(height="0px", margin="0"))
        self.widget.add_class("reversi-sound")

    def play(self) -> None:
        """Play the sound once (if enabled)."""
        if not self.enabled:
            return
        self.plays += 1
        self.widget.value = (
            f'<audio autoplay data-play="{self.plays}" src="{self._source}"></audio>'
        )

    def set_enabled(self, enabled: bool) -> None:
        """Turn the sound on or off; off also removes any audio element."""
        self.enabled = enabled
        if not enabled:
            self.widget.value = ""
