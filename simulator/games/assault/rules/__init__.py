"""The Assault rules the calculators and the scenario engine share: dice, unit cards,
aid, pool assembly (chapter 10), damage, fire, support, smoke, transport and close combat
(``melee``, chapter 12)."""
