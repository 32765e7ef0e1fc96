"""The Tide of Iron combat rules the calculators and the engine share: the roster and terrain
data, unit specs, ranged attacks and assaults (001, 002), the result tables and their
compiled forms (``jit``)."""
