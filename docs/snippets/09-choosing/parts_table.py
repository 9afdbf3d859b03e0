from primer.figures import choosing as figures
from primer.inputs.choosing import ONE_OF_EACH
from primer.published import summary

print(figures.parts_table([summary(name) for name in ONE_OF_EACH]))
