from primer.figures import self_cross_heads as figures
from primer.figures import to_html
from primer.position import PE_D, PE_N, sinusoidal_encoding

pe = sinusoidal_encoding(PE_N, PE_D)  # [64 positions, 128 dimensions]
print(to_html(figures.position_encoding(pe), div_id="fig-position-encoding"))
