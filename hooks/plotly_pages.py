"""MkDocs hook: mark the pages that hold a plotly figure, so overrides/main.html loads plotly.js on those only."""


def on_page_content(html, page, config, files):
    """Mark pages that hold a plotly figure, so overrides/main.html loads plotly.js there only."""
    page.meta["has_plotly"] = "Plotly.newPlot" in html
    return html
