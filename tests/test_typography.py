"""Chinese typography of the zh pages' prose, the house rules of CONTRIBUTING.md: quotes, ellipsis, full-width brackets
and commas, '15%', footnote authors, stage numbers, number formats, footnote markers."""

import json
import re

import pytest
from site_reader import DOCS, ROOT, generated_texts, html_path, page_names, strings, text_of
from zh_typography import THOUSANDS, fix, problems  # tools/ is on pytest's pythonpath (pyproject.toml)


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
        ("他说“ 你好 ”。", "space inside full-width quotes"),
        ("见（ 第 3 章 ）", "space inside full-width quotes"),
        ("第3步", "no space between Chinese and Latin"),
        ("用GPT写", "no space between Chinese and Latin"),
        ("用`mask`遮住", "no space between Chinese and inline code"),
        ("调用 `decode`时", "no space between Chinese and inline code"),
        ("[^x]: A. B, “T”, 2017（摘要）. arXiv:1", "ASCII '.' after Chinese"),
        ("[^x]: A. B, “T”, 2017（摘要）, §2", "ASCII ',' after Chinese"),
        ("[^x]: A. B, “T”, 2017, Table 2（各尺寸）。", "write 表"),
        ("把分数*换成* 0", "italics on Chinese"),
        ("把分数_换成_ 0", "italics on Chinese"),
        ("抽 10,000 次", "thousands separator"),
        ("一个 3×3 的例子", "× between operands"),
        ("一个 n ×n 的表", "× between operands"),
        ("只有第 3 阶段不同", "write 第 3 步"),
        ("- **因果掩码**，关闭", "bold lead-in"),
        ("**文本**。模型", "bold lead-in"),
        ("- **标签：** 正文", "colon inside a bold lead-in"),
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
        "`③` 在代码里不算",
        '`torch.float16` 或 `kv_cache_dtype="fp8"`，以及 FP16、BF16、INT8',
        "见论文[^a][^b]。",
        "English (in brackets), and more",
        "[^v]: A. Vaswani et al., “Attention Is All You Need”, NeurIPS 2017, §3（注），表 2（注）。arXiv:1706.03762",
        "[^v]: A. B, “Title”, NeurIPS 2017. arXiv:1",
        "**文本。** 模型；- **谱范数** $x$；**注意力**（attention）；**标签**：正文",
        "- **`masked_fill(…, 0)`**：关闭",
        "一个 3 × 3 的例子，快 {r}×，以及 $3\\times3$ 和 `a*b*c`",
        "**粗体**与 *English italics* 不算",
        "共 4096 个，第 3 步，2017 年",
        "用 `mask` 遮住，`x`、`y`（`z`）与 **`w`**",
        "```python\nx = 1  # 用`x`\n```",
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
        ("他说“ 你好 ”。", "他说“你好”。"),
        ("第3步用GPT写", "第 3 步用 GPT 写"),
        ("用`mask`遮住，`x`时", "用 `mask` 遮住，`x` 时"),
        ("[^x]: A. B, “T”, 2017（摘要）, Table 2（注）. arXiv:1", "[^x]: A. B, “T”, 2017（摘要），表 2（注）。arXiv:1"),
        ("抽 10,000 次", "抽 10000 次"),
        ("一个 3×3 的例子", "一个 3 × 3 的例子"),
        ("只有第 3 阶段不同", "只有第 3 步不同"),
    ],
)
def test_fixer(text, fixed):
    assert fix(text) == fixed
    assert problems(fix(text)) == []


def label_problems(table):
    """Return [(label, message)] for the typography problems of a zh label table's strings (primer/labels/zh.json)."""
    # the circled ①–⑦ are allowed here: they label the stage list inside the pipeline figure
    return [(text, m) for text in strings(table) for _, m in problems(text) if not m.startswith("stage number")]


def test_zh_figure_labels_typography():
    """What the figures print (primer/labels/zh.json) follows the house style too: no 「」, spaced ×, 第 3 步, ..."""
    table = json.loads((ROOT / "primer" / "labels" / "zh.json").read_text(encoding="utf-8"))
    found = label_problems(table)
    assert not found, "\n".join(f"  {text!r}: {m}" for text, m in found)


def test_label_check_finds_a_planted_problem():
    assert [m for _, m in label_problems({"s": {"k": ["ok", "「{a}」的输出"]}})] == [
        "corner brackets around '「{a}」': use “…”"
    ]


def corner_brackets_in_code(text):
    """Return the lines of Python source that write 「 or 」 outside a comment (a figure's own text)."""
    return [line.strip() for line in text.split("\n") if re.search("[「」]", line.split("#", 1)[0])]


def test_figure_code_writes_no_corner_brackets():
    """A figure builder that adds its own punctuation around a label (primer/figures/*.py) uses “…”, never 「…」."""
    found = {
        path.name: corner_brackets_in_code(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / "primer").rglob("*.py"))
    }
    found = {name: lines for name, lines in found.items() if lines}
    assert not found, found


def test_corner_bracket_finder_finds_a_planted_one():
    assert corner_brackets_in_code('x = 1  # 「ok」\nlabel = f"{q}「{w}」"') == ['label = f"{q}「{w}」"']


@pytest.mark.parametrize("key", ["def_zh", "zh"])
def test_glossary_typography(key):
    """The glossary's zh terms and definitions (docs/snippets/glossary/terms.yml) follow the house style."""
    import yaml

    entries = yaml.safe_load((DOCS / "snippets" / "glossary" / "terms.yml").read_text(encoding="utf-8"))["terms"]
    found = [(e["key"], m) for e in entries for _, m in problems(e[key])]
    assert not found, "\n".join(f"  {k}: {m}" for k, m in found)


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
    """Rules that hold in English too: adjacent footnote markers touch, number formats are upper case, numbers have
    no thousands separators, and × between two operands is spaced."""
    found = en_problems((DOCS / "en" / name).read_text(encoding="utf-8"))
    assert not found, f"docs/en/{name}:\n" + "\n".join(f"  line {n}: {m}" for n, m in found)


def en_problems(text):
    """Return [(line, message)] for the rules an English page shares with the zh house style."""
    from prose import mask
    from zh_typography import MARKERS, NUMBER_FORMAT, THOUSANDS, TIMES

    found = [
        (n, "space between footnote markers") for n, line in enumerate(text.split("\n"), 1) if MARKERS.search(line)
    ]
    for n, line in enumerate(mask(text).split("\n"), 1):
        found += [(n, f"number format {m.group(1)!r}") for m in NUMBER_FORMAT.finditer(line)]
        found += [(n, f"thousands separator in {m.group(0)!r}") for m in THOUSANDS.finditer(line)]
        found += [(n, "× between operands needs a space either side") for m in TIMES.finditer(line)]
    return found


@pytest.mark.parametrize(
    "text, problem",
    [("a 3×3 table", "×"), ("in 10,000 draws", "thousands"), ("see [^a] [^b]", "markers"), ("in fp16", "format")],
)
def test_en_checker_finds(text, problem):
    assert any(problem in m for _, m in en_problems(text))


def test_en_checker_leaves_alone():
    assert en_problems("a 3 × 3 table, 10000 draws, 4096 keys, $3\\times3$, `1,000` and FP16[^a][^b]") == []


# ---- what the executed blocks print onto a zh page: tab labels, tables and figure text are checked where the reader
# sees them, in the built HTML (markdown-exec labels a tabbed block "Source|Result" unless its fence says otherwise).

TAB_LABELS = re.compile(r'<div class="tabbed-labels[^"]*">(.*?)</div>', re.S)
LABEL = re.compile(r"<label[^>]*>(.*?)</label>", re.S)
NAMES = {"PyTorch", "numpy"}  # content tabs named after a library keep its name in both languages


def english_tab_labels(html):
    """Return the tab labels of a built page that are English words rather than Chinese or a library's name."""
    labels_ = [text_of(label).strip() for tabs in TAB_LABELS.findall(html) for label in LABEL.findall(tabs)]
    return [t for t in labels_ if t not in NAMES and not re.search(IDEOGRAPH_RX, t)]


IDEOGRAPH_RX = r"[\u3400-\u4dbf\u4e00-\u9fff]"


@pytest.mark.parametrize("name", page_names())
def test_zh_built_page_labels_its_tabs_in_chinese(site, name):
    """A zh page's tabs read 代码 / 结果, not markdown-exec's English default nor an English `tabs=`."""
    found = english_tab_labels(html_path(site, "zh", name).read_text(encoding="utf-8"))
    assert not found, f'zh {name} shows English tab labels: {found} (write tabs="代码|结果" on the fence)'


def test_tab_label_check_finds_planted_english_labels():
    html = (
        '<div class="tabbed-labels"><label for="__tabbed_1_1">结果</label><label for="__tabbed_1_2">代码</label></div>'
        '<div class="tabbed-labels"><label for="__tabbed_2_1">Result</label>'
        '<label for="__tabbed_2_2">Code</label></div>'
        '<div class="tabbed-labels tabbed-labels--linked"><label for="__tabbed_3_1">numpy</label>'
        '<label for="__tabbed_3_2">PyTorch</label><label for="__tabbed_3_3">Source</label></div>'
    )
    assert english_tab_labels(html) == ["Result", "Code", "Source"]


HOVER_GROUPING = re.compile(r"%\{[^}:]*:[^}]*,[^}]*\}")  # a d3 format with ',' groups thousands: %{x:,}


def separators_in(texts):
    """Return the strings among texts that write a number with thousands separators (or ask plotly to)."""
    return [t for t in texts if THOUSANDS.search(t) or HOVER_GROUPING.search(t)]


@pytest.mark.parametrize("name", page_names())
def test_zh_built_page_prints_no_thousands_separators(site, name):
    """Tables and figure labels the blocks print onto a zh page write 4096, not 4,096 (figures.tables.integer)."""
    found = separators_in(generated_texts(html_path(site, "zh", name).read_text(encoding="utf-8")))
    assert not found, f"zh {name} prints thousands separators: {found[:10]}"


def test_separator_check_finds_planted_ones_in_a_table_and_a_figure():
    figure = (
        '[{"x":[1],"hovertemplate":"%{x:,}<extra></extra>","name":"窗口 4096"}],{"title":{"text":"共 85,017,600 个"}}'
    )
    html = (
        "<table><tr><th>N</th><th>参数</th></tr><tr><td>1,000</td><td>6738415616</td></tr></table>"
        f'<script>Plotly.newPlot("fig-x", {figure}, {{}})</script>'
    )
    assert separators_in(generated_texts(html)) == ["1,000", "%{x:,}<extra></extra>", "共 85,017,600 个"]
    assert separators_in(["4096", "%{x:d}", "0.25, 0.75", "(1, 2)", "1,2"]) == []
    colours = '[{"colorscale":[[0,"rgb(247,251,255)"],[1,"rgb(8,48,107)"]]}],{}'
    assert separators_in(generated_texts(f'<script>Plotly.newPlot("f", {colours}, {{}})</script>')) == []


ASCII_MINUS = re.compile(r"(?<![\w.\-])-(?=\d)")  # '-0.86': a printed number's minus is '−', as in the prose


def generated_problems(html):
    """Return [(text, message)] for the zh typography problems of what a built page's blocks printed (tables, figure
    titles, labels, hover text); the circled ①–⑦ label the pipeline figure's stages, as in the label table."""
    texts = generated_texts(html)
    found = [(t, m) for t in texts for _, m in problems(t) if not m.startswith("stage number")]
    return found + [(t, "ASCII '-' as a minus sign: write '−'") for t in texts if ASCII_MINUS.search(t)]


@pytest.mark.parametrize("name", page_names())
def test_zh_built_page_tables_and_figures_follow_the_typography(site, name):
    """The house style holds for generated text as for prose: full-width brackets, spaced ×, a space before digits."""
    found = generated_problems(html_path(site, "zh", name).read_text(encoding="utf-8"))
    assert not found, f"zh {name}:\n" + "\n".join(f"  {t[:80]!r}: {m}" for t, m in found)


def test_generated_typography_check_finds_planted_problems():
    figure = '[{"hovertemplate":"位置 %{y}, 维度 %{x}"}],{"title":{"text":"② 嵌入 · 7×16"}}'
    html = (
        "<table><tr><th>最大权重（16个键）</th></tr><tr><td>0 (被遮住)</td></tr><tr><td>-0.86</td></tr>"
        '<tr><td>微调<sup id="fnref:x"><a href="#fn:x">4</a></sup></td></tr></table>'
        f'<script>Plotly.newPlot("fig-x", {figure}, {{}})</script>'
    )
    found = [m.split(":")[0].split(" at ")[0] for _, m in generated_problems(html)]
    assert found == [
        "no space between Chinese and Latin/digits",
        "ASCII parentheses around Chinese '(被遮住)'",
        "ASCII comma next to Chinese",
        "× between operands needs a space either side",
        "ASCII '-' as a minus sign",
    ], found
    assert generated_problems("<table><tr><td>−0.86</td><td>2017-07-20</td><td>T − k</td></tr></table>") == []
