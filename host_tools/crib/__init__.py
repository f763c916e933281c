# crib: the laptop tool for the cribboard (score hands, sync, watch, plot, deploy).
__version__ = "0.1.0"
