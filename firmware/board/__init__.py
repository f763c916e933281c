# The board application: journal, input, display and USB link around the pure core in cribbage/.
