# crib duel: games between the opponent's levels and external bots over the line protocol of docs/bots.md.
