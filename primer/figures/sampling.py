"""Figures of the chapter "Sampling and the seven-stage pipeline": temperature and seeded draws."""

import plotly.graph_objects as go

from primer.figures._style import ACCENT, MUTED, add_control, page_lang, styled
from primer.figures.tables import md_table, pct

TEXT = {
    "zh": {
        "words": ("垫子", "沙发", "屋顶", "月亮", "钢琴"),
        "prob": "概率 softmax(z/T)", "freq": "{n} 次抽样的频率", "temp": "温度 T = ",
        "greedy": "0（贪心）", "entropy": "熵 {h:.2f} bit", "y": "概率", "t": "T",
    },
    "en": {
        "words": ("mat", "sofa", "roof", "moon", "piano"),
        "prob": "probability softmax(z/T)", "freq": "frequency in {n} draws", "temp": "temperature T = ",
        "greedy": "0 (greedy)", "entropy": "entropy {h:.2f} bits", "y": "probability", "t": "T",
    },
}


def words(lang=None):
    """Return the candidate next words of the temperature example, in the page language."""
    return TEXT[page_lang(lang)]["words"]


def temperature_slider(temperatures, probs, freqs, entropies, *, n_draws, active=0, lang=None):
    """Draw probabilities as bars and seeded-draw frequencies as dots, one slider step per temperature.

    temperatures may hold 0, drawn as the greedy step; probs, freqs and entropies are per step.
    """
    t = TEXT[page_lang(lang)]
    x = list(t["words"])
    fig = go.Figure()
    steps = []
    for k, temp in enumerate(temperatures):
        fig.add_trace(go.Bar(x=x, y=list(probs[k]), marker_color=ACCENT, name=t["prob"],
                             hovertemplate="%{x}: %{y:.4f}<extra></extra>"))
        fig.add_trace(go.Scatter(x=x, y=list(freqs[k]), mode="markers", name=t["freq"].format(n=f"{n_draws:,}"),
                                 marker=dict(symbol="diamond", size=12, color="#1f77b4", line=dict(width=1, color="white")),
                                 hovertemplate="%{x}: %{y:.4f}<extra></extra>"))
        fig.add_trace(go.Scatter(x=x, y=[max(p, f) + 0.06 for p, f in zip(probs[k], freqs[k])], mode="text",
                                 text=[pct(p) for p in probs[k]], showlegend=False, hoverinfo="skip"))
        label = t["greedy"] if temp == 0 else f"{temp:g}"
        title = f"{t['temp']}{label} · {t['entropy'].format(h=entropies[k])}"
        steps.append((label, [3 * k, 3 * k + 1, 3 * k + 2], {"title.text": title}))
    fig.update_yaxes(range=[0, 1.12], title=t["y"], tickformat=".0%")
    fig.update_xaxes(color=MUTED)
    fig.update_layout(legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"), bargap=0.35)
    styled(fig, height=460, title=" ")
    add_control(fig, steps, kind="slider", prefix=t["temp"], active=active)
    return fig


def frequency_table(temperatures, probs, freqs, *, lang=None):
    """Return a Markdown table: one row per temperature, each cell 'probability / frequency' in percent."""
    t = TEXT[page_lang(lang)]
    head = [t["t"]] + list(t["words"])
    rows = []
    for k, temp in enumerate(temperatures):
        label = t["greedy"] if temp == 0 else f"{temp:g}"
        rows.append([label] + [f"{pct(p)} / {pct(f)}" for p, f in zip(probs[k], freqs[k])])
    return md_table(head, rows)
