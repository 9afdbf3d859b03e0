from primer.figures import choosing as figures
from primer.published import summary
from primer.pages.choosing import MODELS

print(figures.parts_table([summary(name) for name in MODELS]))
