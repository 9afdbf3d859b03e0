from primer.counts import count_params
from primer.figures import choosing as figures
from primer.inputs.choosing import ONE_OF_EACH
from primer.published import model, summary

print(figures.params_table([summary(name) for name in ONE_OF_EACH]))
gpt2 = model("GPT-2")  # GPT-2 small, its released config
gpt2_total = sum(count_params(gpt2.config, gpt2.machine).values())
print()
print(figures.gpt2_note(gpt2_total, summary("GPT-1")["total"], gpt2.config.vocab_size, gpt2.config.max_len))
