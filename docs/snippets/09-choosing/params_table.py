from primer.figures import choosing as figures
from primer.models import summary
from primer.pages.choosing import MODELS

print(figures.params_table([summary(name) for name in MODELS]))
