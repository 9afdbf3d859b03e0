from primer.figures import choosing as figures
from primer.inputs.choosing import MODELS
from primer.published import summary

print(figures.parts_table([summary(name) for name in MODELS]))
