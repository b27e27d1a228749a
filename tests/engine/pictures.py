"""Deals drawn as pictures of the heart, for tests that need particular cards in particular places.

Positions run row by row: 1-4 the top row, 5-10, 11-15, 16-19, 20-22, 23-24, and 25 the tip.
"""

from game.engine.pictures import deal_from_picture

# The seed's examples: the tip is 4, the waste A, and a 4 waits second in the stock;
# 23 and 24 (the cards the tip covers) are a pair of 7s.
SEED = """
   K   Q       J  10
 9   8   7   6   5   3
   3   2   A   K   Q
     J  10   9   8
       2   6   5
         7   7
          4
"""
SEED_DEAL = deal_from_picture(SEED, waste=1, stock=(8, 4))

# The tip's three partners all lie under it and the pile holds no 4: stuck from the start.
STUCK = """
   K   Q       J  10
 9   8   7   6   5   3
   3   2   A   K   Q
     J  10   9   8
       4   6   5
         4   4
          4
"""
STUCK_DEAL = deal_from_picture(STUCK, waste=1)


def play(state, *targets):
    """Tap each target in turn; the final state and the events, in order."""
    from game.engine import tap

    events = []
    for target in targets:
        state, event = tap(state, target)
        events.append(event)
    return state, events


# Once the tip pairs with the 4 second in the stock, 23 (K) and 24 (Q) are free, and every
# other K and Q lies in the heart under them: no pair can form any more.
STUCK_AFTER_A_PAIR = """
   K   Q       J  10
 9   8   7   6   5   3
   3   2   A   K   Q
     J  10   9   8
       K   Q   5
         K   Q
          4
"""
STUCK_AFTER_A_PAIR_DEAL = deal_from_picture(STUCK_AFTER_A_PAIR, waste=1, stock=(8, 4))
