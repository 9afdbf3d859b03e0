from primer import leak, mlm
from primer.config import Config
from primer.figures import decoder as figures
from primer.figures import to_html
from primer.inputs.decoder import CHANGED_POSITION, CHANGED_WORD
from primer.inputs.encoder import SEED
from primer.vocab import CAT_VOCAB

# "the cat sat on the mat" vs "... the rug": decode() with its causal mask, and the same stack with a full mask
words, changed, result = leak.word_leak_test(
    mlm.SENTENCE, CHANGED_POSITION, CHANGED_WORD, CAT_VOCAB, Config(vocab_size=len(CAT_VOCAB)), SEED
)
print(to_html(figures.future_leak(words, changed, result), div_id="fig-future-leak"))
