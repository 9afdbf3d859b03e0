from primer import leak
from primer.figures import decoder as figures

words, changed, result = leak.experiment()
print(figures.leak_table(words, changed, result))
