from primer import leak
from primer.figures import decoder as figures
from primer.figures import to_html

# "the cat sat on the mat" vs "... the rug": decode() with its causal mask, and the same stack with a full mask
words, changed, result = leak.experiment()
print(to_html(figures.leak_toggle(words, changed, result), div_id="fig-future-leak"))
