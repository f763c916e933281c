# A bot for crib duel's tests (docs/bots.md's protocol): plays legal cards, or breaks the protocol on purpose.
import sys
import time

RANKS = "A23456789TJQK"


def pip(card):
    r = RANKS.index(card[0]) + 1
    return r if r < 10 else 10


def main(mode):
    seat = None
    hand = []
    deals = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        if words[0] == "newgame":
            seat = int(words[1])
        elif words[0] == "deal":
            deals += 1
            hand = words[4:]
            if mode == "garbage" and deals == 2:
                print("throw me a bone", flush=True)
                continue
            if mode == "silent" and deals == 2:
                continue  # never answers: the duel's timeout
            if mode == "exit" and deals == 2:
                sys.exit(3)
            print("# thinking", flush=True)  # comment lines are skipped
            print("discard %s %s" % (hand[0], hand[1]), flush=True)
            hand = hand[2:]
        elif words[0] == "laid" and int(words[1]) == seat:
            hand.remove(words[2])
        elif words[0] == "turn":
            count = int(words[1])
            fits = [c for c in hand if count + pip(c) <= 31]
            if mode == "slow" and deals == 2:
                time.sleep(3)
            if mode == "illegal" and deals == 2:
                print("lay %s" % ("AS" if "AS" not in hand else "2S"), flush=True)
            elif mode == "early-go" and deals == 2 and fits and count <= 21:
                print("go", flush=True)
            elif fits:
                print("lay %s" % fits[0], flush=True)
            else:
                print("go", flush=True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "good")
