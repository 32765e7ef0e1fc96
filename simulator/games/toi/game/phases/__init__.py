"""The phases of a Tide of Iron round (001 Turn sequence), one module each."""
