from primer.config import Config
from primer.counts import predicted_ops
from primer.decoding import measured_ops
from primer.figures import kv_cache as figures
from primer.transformer import init_stack

cfg = Config()  # 2 layers x 4 heads: the model's count is layers x heads x sum
params = init_stack(0, cfg)
rows = []
for n in (1, 4, 16, 64):
    rows.append(
        (
            n,
            measured_ops(n, params, cfg, cached=False),
            predicted_ops(n, cfg, cached=False),
            measured_ops(n, params, cfg, cached=True),
            predicted_ops(n, cfg, cached=True),
        )
    )
print(figures.ops_table(rows))
