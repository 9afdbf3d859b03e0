from primer import encdec
from primer.figures import encdec as figs

print(figs.layout_table(encdec.layout_summary(encdec.SOURCE, encdec.TARGET)))
