"""What the board says and sounds: the pure part of its audio.

- :mod:`.cues`: the short sounds for what a player must notice without
  looking, drawn as tones into WAV bytes (no sound files ship);
- :mod:`.phrases`: every sentence the voice says, one translatable text each;
- :mod:`.notices`: what the players must hear, worked out from the status the
  loop publishes each turn (an action accepted, a wrong board, whose turn it
  is, a choice to make, the computer's move, the end of the game);
- :mod:`.settings`: cues and voice on or off, the volume, the quiet hours.

Pure: no I/O, no threads, no clock. The daemon's side
(:mod:`boardctl.daemon.sound`) hears the loop and hands what is to be said to
the audio worker (:mod:`hardware.audio`), which renders and plays it apart.
"""
