# The whole-game verification (make verify, make crib-tables' comparison): every hand scored against the
# published distributions, our crib tables against the published ones, and the reference scorer the
# tests check the fast core with (on both interpreters: this file stays empty of code).
