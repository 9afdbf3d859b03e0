from primer.architectures import MODELS, summary
from primer.figures import choosing

print(choosing.params_table([summary(name) for name in MODELS]))
