from primer.conventions import CONVENTIONS  # measured against torch by tests/test_conventions.py
from primer.figures import mask as figures

print(figures.conventions_table(CONVENTIONS))
