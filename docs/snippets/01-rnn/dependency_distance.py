from primer.figures import rnn as figures
from primer.pages.rnn import HEAD, SENTENCE, TAIL
from primer.rnn import dependency_distance

p, q, distance = dependency_distance(SENTENCE, HEAD, TAIL)  # 1-based positions, counted by primer
print(figures.positions_table(SENTENCE, {HEAD, TAIL}))
print(figures.distance_table(HEAD, TAIL, p, q, distance))
