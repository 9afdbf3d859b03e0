import numpy as np
import torch
import torch.nn.functional as F


def rnn_forward(x, cell):  # [T, d_in], nn.RNNCell -> list of T states [d]; h_0 = 0
    h, out = torch.zeros(cell.hidden_size, dtype=x.dtype), []
    for x_t in x:  # step t needs step t-1: this loop is the serial wall
        h = cell(x_t, h)
        h.retain_grad()  # keep dL/dh_t: autograd does the BPTT walk
        out.append(h)
    return out


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
x, w, u, b = rng.normal(size=(40, 3)), rng.normal(size=(8, 8)) * 0.2, rng.normal(size=(8, 3)), np.zeros(8)
v, y = rng.normal(size=(5, 8)), rng.integers(0, 5, size=40)
cell = torch.nn.RNNCell(3, 8, dtype=torch.float64)  # h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)
with torch.no_grad():  # nn.RNNCell adds two biases; ours is one b, so b_hh stays 0
    cell.weight_hh.copy_(torch.from_numpy(w))
    cell.weight_ih.copy_(torch.from_numpy(u))
    cell.bias_ih.copy_(torch.from_numpy(b))
    cell.bias_hh.zero_()
h = rnn_forward(torch.from_numpy(x), cell)
loss = F.cross_entropy(h[-1] @ torch.from_numpy(v).T, torch.tensor(y[-1]))  # only the last step has a loss
loss.backward()
print(f"||dL/dh_40|| = {h[-1].grad.norm():.2e}, ||dL/dh_1|| = {h[0].grad.norm():.2e}")
