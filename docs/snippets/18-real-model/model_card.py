from primer import pretrained
from primer.figures import real_model as figures

model = pretrained.load()  # SmolLM2-135M-Instruct, read once per build from the fetched GGUF file
print(figures.model_table(model))
