"""Chinese typography of the zh pages' prose, the house rules of CONTRIBUTING.md: quotes, ellipsis, full-width brackets
and commas, '15%', footnote authors, stage numbers, number formats, footnote markers."""

import re
import sys

import pytest
from site_reader import DOCS, ROOT, html_path, page_names

sys.path.insert(0, str(ROOT / "tools"))
from zh_typography import fix, problems  # noqa: E402


@pytest.mark.parametrize("name", page_names())
def test_zh_page_typography(name):
    text = (DOCS / "zh" / name).read_text(encoding="utf-8")
    found = problems(text)
    assert not found, f"docs/zh/{name} (fix: python tools/zh_typography.py --fix docs/zh/{name}):\n" + "\n".join(
        f"  line {n}: {m}" for n, m in found
    )


@pytest.mark.parametrize(
    "text, problem",
    [
        ('模型写 "sat" 的时候', "ASCII quotes"),
        ("他说'你好'。", "ASCII quotes"),
        ("例如（查询, 键）两列", "ASCII comma"),
        ("大约 15 % 的 token", "space before %"),
        ('只有一个 " 号', "odd"),
        ("例如「苹果」一词", "corner brackets"),
        ("猫坐在…上", "ellipsis"),
        ("猫坐在...上", "ellipsis"),
        ("每一对 (查询，键) 打分", "ASCII parentheses"),
        ("查询, 键和值", "ASCII comma"),
        ("[^v]: A. Vaswani 等, “Attention Is All You Need”, 2017.", "et al."),
        ("只有阶段 ③ 不同", "stage number"),
        ("缓存存成 fp16", "number format"),
        ("每个值 1 字节（Fp8）", "number format"),
        ("见论文[^a] [^b]。", "footnote markers"),
    ],
)
def test_checker_finds(text, problem):
    assert any(problem in m for _, m in problems(text))


@pytest.mark.parametrize(
    "text",
    [
        '代码 `print("你好")` 不算',
        '```python\nprint("你好")\n```',
        '$$\n\\text{"x"} 15 \\%\n$$',
        '公式 $a, "b"$ 不算；链接 [文](https://x.org/?q="a") 也不算',
        '> "Attention is all you need," they wrote.',
        '!!! note "提示一下"\n    正文',
        '<span title="一个, 属性">文字</span>',
        "It's fine: don't touch apostrophes.",
        "约 15% 的 token（查询，键）",
        "猫坐在……上",
        "输入位置 0…i，不含 i+1",
        "例如“French: … English: …”",
        "代码 `masked_fill(…, 0)` 与 `x[...]` 不算",
        "[^v]: A. Vaswani et al., “Attention Is All You Need”, NeurIPS 2017, §3（注）, 2017.",
        "`③` 在代码里不算",
        '`torch.float16` 或 `kv_cache_dtype="fp8"`，以及 FP16、BF16、INT8',
        "见论文[^a][^b]。",
        "English (in brackets), and more",
    ],
)
def test_checker_leaves_alone(text):
    assert problems(text) == []


@pytest.mark.parametrize(
    "text, fixed",
    [
        ('在 "the cat" 上运行', "在“the cat”上运行"),
        ('每格是"概率 / 抽样频率"。', "每格是“概率 / 抽样频率”。"),
        ("他说'你好'。", "他说‘你好’。"),
        ("（查询, 键）", "（查询，键）"),
        ("大约 15 % 的", "大约 15% 的"),
        ('保留 `"x"` 和 $"y"$，改 "这里"', '保留 `"x"` 和 $"y"$，改“这里”'),
        ('- "开头"在行首', "- “开头”在行首"),
        ("例如「苹果」一词", "例如“苹果”一词"),
        ("猫坐在…上", "猫坐在……上"),
        ("每一对 (查询, 键) 打分", "每一对 （查询，键） 打分"),
        ("[^v]: A. Vaswani 等, “T”, 2017.", "[^v]: A. Vaswani et al., “T”, 2017."),
        ("## 只有阶段 ③ 不同", "## 只有第 3 步不同"),
        ("缓存存成 fp16 或 bf16", "缓存存成 FP16 或 BF16"),
        ("见论文[^a] [^b]。", "见论文[^a][^b]。"),
    ],
)
def test_fixer(text, fixed):
    assert fix(text) == fixed
    assert problems(fix(text)) == []


PERCENT_SPACE = re.compile(r"\d(?:[ \u00a0\u2009\u202f]|&nbsp;|&#160;|\\u00a0)+%(?!\{)")


@pytest.mark.parametrize("name", page_names())
def test_zh_built_page_percentages(site, name):
    """What the executed blocks print onto a zh page (tables, figure text) writes '15%' too."""
    html = html_path(site, "zh", name).read_text(encoding="utf-8")
    html = re.sub(r"<(code|pre|style)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(r'<span class="arithmatex">.*?</span>', "", html, flags=re.S)
    found = sorted({m.group(0) for m in PERCENT_SPACE.finditer(html)})
    assert not found, f"zh {name} prints percentages with a space: {found[:10]}"


@pytest.mark.parametrize("name", page_names())
def test_en_page_footnote_markers_and_number_formats(name):
    """Two rules hold in English too: adjacent footnote markers touch, number formats are upper case."""
    from prose import mask
    from zh_typography import MARKERS, NUMBER_FORMAT

    text = (DOCS / "en" / name).read_text(encoding="utf-8")
    found = [
        (n, "space between footnote markers") for n, line in enumerate(text.split("\n"), 1) if MARKERS.search(line)
    ]
    found += [
        (n, f"number format {m.group(1)!r}")
        for n, line in enumerate(mask(text).split("\n"), 1)
        for m in NUMBER_FORMAT.finditer(line)
    ]
    assert not found, f"docs/en/{name}:\n" + "\n".join(f"  line {n}: {m}" for n, m in found)
