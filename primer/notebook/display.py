"""The notebooks' language: set it once, for the grades' messages and the figures' labels, with a CJK font in zh."""

import os

from primer.language import LANGS

CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Source Han Sans SC",
    "Microsoft YaHei",
    "PingFang SC",
    "WenQuanYi Zen Hei",
    "SimHei",
)  # whichever is installed draws the Chinese labels
CJK_FILES = ("cjk", "sourcehan", "msyh", "pingfang", "wqy", "simhei")  # their files' names, lower case


def use_language(lang):
    """Set the notebook's language (zh or en) for the checks and figure labels; in zh, a CJK font for any matplotlib."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    os.environ["PRIMER_LANG"] = lang
    try:
        import matplotlib
    except ImportError:  # the site's in-page runner has numpy only: no figures to label
        return
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    if lang == "zh" and not installed & set(CJK_FONTS):  # installed after matplotlib cached its font list
        for path in font_manager.findSystemFonts():
            if any(part in os.path.basename(path).lower() for part in CJK_FILES):
                font_manager.fontManager.addfont(path)
        installed = {f.name for f in font_manager.fontManager.ttflist}
    cjk = [name for name in CJK_FONTS if name in installed] if lang == "zh" else []
    matplotlib.rcParams["font.family"] = [
        "DejaVu Sans",
        *cjk,
    ]  # per-glyph fallback: Latin from DejaVu, Chinese from CJK
