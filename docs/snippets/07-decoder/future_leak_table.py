from primer import leak
from primer.figures import decoder

words, changed, result = leak.experiment()
print(decoder.leak_table(words, changed, result))
