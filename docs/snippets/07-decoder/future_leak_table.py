from primer import leak, mlm
from primer.config import Config
from primer.figures import decoder as figures
from primer.inputs.decoder import CHANGED_POSITION, CHANGED_WORD
from primer.inputs.encoder import SEED
from primer.vocab import CAT_VOCAB

words, changed, result = leak.word_leak_test(
    mlm.SENTENCE, CHANGED_POSITION, CHANGED_WORD, CAT_VOCAB, Config(vocab_size=len(CAT_VOCAB)), SEED
)
print(figures.future_leak_table(words, changed, result))
