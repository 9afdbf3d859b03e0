import torch
import torch.nn.functional as F

from primer.mask_checks import check_cache, check_causal, check_padding


class MyAttention(torch.nn.Module):  # stands for yours: one causal head, a padding mask, a KV cache
    def __init__(self, d=16):
        super().__init__()
        self.qkv = torch.nn.Linear(d, 3 * d)

    def forward(self, x, valid=None, cache=None):  # [b, n, d], [b, n] bool (True: a real token) -> [b, n, d]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if cache is not None:  # decoding: keep every K/V row; the new query reads them all
            cache.append((k, v))
            k, v = torch.cat([kv[0] for kv in cache], dim=1), torch.cat([kv[1] for kv in cache], dim=1)
            return F.scaled_dot_product_attention(q, k, v)
        n = x.shape[1]
        mask = torch.ones(n, n, dtype=torch.bool).tril()  # True: query i may read key j
        if valid is not None:  # padded keys closed; a padded query reads itself, so no row is empty
            mask = mask & valid[:, None, :] | torch.eye(n, dtype=torch.bool) & ~valid[:, :, None]
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


class Checked:  # the wrapper: numpy rows in and out, fed in the layer's own dtype, one sequence as a batch of one
    def __init__(self, layer):
        self.layer, self.dtype = layer.eval(), next(layer.parameters()).dtype

    @torch.no_grad()
    def __call__(self, x, valid=None):  # [n, d] (, [n] bool) -> [n, d]
        valid = None if valid is None else torch.from_numpy(valid)[None]
        return self.layer(torch.from_numpy(x).to(self.dtype)[None], valid)[0].numpy()

    def step(self):  # a fresh cached decoder: x_t [d] -> y_t [d]
        cache = []

        @torch.no_grad()
        def one(x_t):
            return self.layer(torch.from_numpy(x_t).to(self.dtype)[None, None], cache=cache)[0, 0].numpy()

        return one


layer = Checked(MyAttention())
print(check_causal(layer, d=16))
print(check_padding(layer, d=16))  # padded on the right, then on the left
print(check_cache(layer.step, layer, d=16))
