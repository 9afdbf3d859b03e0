from primer.figures import rnn as figures
from primer.inputs.rnn import BA_HEAD, BA_SENTENCE, BA_TAIL, HEAD, SENTENCE, TAIL
from primer.rnn import dependency_distance

print(figures.positions_table(SENTENCE, {HEAD, TAIL}))
rows = []
for text, head, tail in [(SENTENCE, HEAD, TAIL), (BA_SENTENCE, BA_HEAD, BA_TAIL)]:
    p, q, distance = dependency_distance(text, head, tail)  # 1-based positions, counted by primer
    rows.append((head, p, tail, q, distance))
print(figures.distance_table(rows))
