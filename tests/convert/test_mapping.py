"""Every HTML construct and the exact Markdown it becomes."""

from __future__ import annotations

from webtap.convert import Document, Facts, convert


def md(html: str | bytes, base_url: str | None = None) -> str:
    return convert(html, base_url).markdown


# -- the spec's mapping ----------------------------------------------------------------------


def test_document_shape() -> None:
    assert convert("<title>T</title><p>x</p>") == Document("T", "x\n", facts=Facts(1))


def test_headings() -> None:
    assert md("<h1>One</h1>") == "# One\n"
    assert md("<h2>Two</h2><h3>Three</h3>") == "## Two\n\n### Three\n"
    assert md("<h4>4</h4><h5>5</h5><h6>6</h6>") == "#### 4\n\n##### 5\n\n###### 6\n"


def test_heading_is_one_line() -> None:
    assert md("<h2>a<br>b\n c</h2>") == "## a b c\n"
    assert md("<h2>a<div>b</div></h2>") == "## a b\n"


def test_heading_with_link_inside() -> None:
    assert md('<h2><a href="/x">Title</a> more</h2>') == "## [Title](/x) more\n"


def test_heading_keeps_trailing_hash() -> None:
    assert md("<h1>C#</h1>") == "# C#\n"
    assert md("<h1>Item #</h1>") == "# Item \\#\n"


def test_heading_permalink_dropped() -> None:
    assert md('<h2>Sec<a class="headerlink" href="#sec">¶</a></h2>') == "## Sec\n"


def test_paragraphs() -> None:
    assert md("<p>one</p><p>two</p>") == "one\n\ntwo\n"
    assert md("<p>  lots   of\n\n space  </p>") == "lots of space\n"


def test_links() -> None:
    assert md('<a href="https://x.org/a">text</a>') == "[text](https://x.org/a)\n"
    assert md('<p>see <a href="/a"> spaced </a>here</p>') == "see [spaced](/a) here\n"


def test_link_without_href_is_text() -> None:
    assert md("<p>a <a>b</a> c</p>") == "a b c\n"
    assert md('<p>a <a name="x">b</a> c</p>') == "a b c\n"


def test_javascript_link_is_text() -> None:
    assert md('<a href="javascript:void(0)">click</a>') == "click\n"
    assert md('<a href=" JavaScript:go()">go</a>') == "go\n"


def test_empty_link_dropped() -> None:
    assert md('<p>a<a href="/x"> </a>b</p>') == "a b\n"
    assert md('<p>a <a href="#">top</a></p>') == "a top\n"


def test_link_destination_escaped() -> None:
    assert md('<a href="/a b">x</a>') == "[x](/a%20b)\n"
    assert md('<a href="/wiki/C_(lang)">C</a>') == "[C](/wiki/C_\\(lang\\))\n"


def test_link_text_brackets_escaped() -> None:
    assert md('<a href="/x">[1] note</a>') == "[\\[1\\] note](/x)\n"


def test_link_around_code_with_bracket_is_an_html_anchor() -> None:
    html = '<a href="/a?b=1&amp;c=(2)"><code>x[0]: y</code></a>'
    assert md(html) == '<a href="/a?b=1&amp;c=(2)">`x[0]: y`</a>\n'


def test_link_after_exclamation_is_not_an_image() -> None:
    assert md('<p>Wow!<a href="/x">x</a></p>') == "Wow\\![x](/x)\n"


def test_strong_and_em() -> None:
    assert md("<p><strong>a</strong> <b>b</b> <em>c</em> <i>d</i></p>") == "**a** **b** *c* *d*\n"


def test_emphasis_whitespace_moves_outside() -> None:
    assert md("<p>x<b> bold </b>y</p>") == "x **bold** y\n"
    assert md("<p>x<em>\xa0it\xa0</em>y</p>") == "x\xa0*it*\xa0y\n"


def test_empty_emphasis_dropped() -> None:
    assert md("<p>a<b> </b>b<i></i>c</p>") == "a bc\n"


def test_nested_and_adjacent_emphasis() -> None:
    # Emphasis inside the same emphasis nests with the other delimiter, as in the HTML.
    assert md("<p><b>a <b>b</b> c</b></p>") == "**a __b__ c**\n"
    assert md("<p><i><i>a</i></i></p>") == "*_a_*\n"
    assert md("<p><i>a<i>b</i>c</i></p>") == "*a<em>b</em>c*\n"  # "_" cannot nest in a word
    assert md("<p><b>a</b><b>b</b></p>") == "**ab**\n"
    assert md("<p><b><i>both</i></b></p>") == "***both***\n"


def test_emphasis_that_cannot_flank_uses_html() -> None:
    assert md("<p>Byte<em><code>n</code></em></p>") == "Byte<em>`n`</em>\n"
    assert md("<p><b>Note:</b>text</p>") == "<strong>Note:</strong>text\n"
    assert md("<p><b>Note:</b> text</p>") == "**Note:** text\n"


def test_inline_code() -> None:
    assert md("<p>run <code>ls -l</code></p>") == "run `ls -l`\n"
    assert md("<p><code>a*b_c</code></p>") == "`a*b_c`\n"


def test_inline_code_with_backticks() -> None:
    assert md("<p><code>a`b</code></p>") == "``a`b``\n"
    assert md("<p><code>a<br>b</code></p>") == "`a b`\n"
    assert md("<p><code>``</code></p>") == "``` `` ```\n"
    assert md("<p><code>`x</code></p>") == "`` `x ``\n"


def test_inline_code_family() -> None:
    assert md("<p><kbd>Ctrl</kbd>+<samp>out</samp> <tt>tt</tt></p>") == "`Ctrl`+`out` `tt`\n"


def test_code_wrapping_a_link() -> None:
    assert md('<p><code><a href="/f">f()</a></code></p>') == "[`f()`](/f)\n"
    assert md('<p><a href="/f"><code>f()</code></a></p>') == "[`f()`](/f)\n"


def test_unordered_list() -> None:
    assert md("<ul><li>a</li><li>b</li></ul>") == "- a\n- b\n"


def test_ordered_list() -> None:
    assert md("<ol><li>a</li><li>b</li></ol>") == "1. a\n2. b\n"


def test_ordered_list_start_and_value() -> None:
    assert md('<ol start="9"><li>a</li><li>b</li></ol>') == "9. a\n10. b\n"
    assert md('<ol><li>a</li><li value="7">b</li><li>c</li></ol>') == "1. a\n7. b\n8. c\n"


def test_list_numbers_stay_list_numbers() -> None:
    assert md('<ol start="-3"><li>a</li></ol>') == "0. a\n"
    assert md('<ol start="12345678901"><li>a</li><li>b</li></ol>') == "999999999. a\n999999999. b\n"


def test_nested_lists() -> None:
    html = "<ul><li>a<ul><li>b<ol><li>c</li></ol></li></ul></li><li>d</li></ul>"
    assert md(html) == "- a\n  - b\n    1. c\n- d\n"


def test_nested_list_under_wide_marker() -> None:
    html = '<ol start="10"><li>ten<ul><li>sub</li></ul></li></ol>'
    assert md(html) == "10. ten\n    - sub\n"


def test_list_item_paragraphs_and_code_indented() -> None:
    html = "<ul><li><p>one</p><p>two</p><pre>code\n  more</pre></li><li>next</li></ul>"
    assert md(html) == "- one\n\n  two\n\n  ```\n  code\n    more\n  ```\n\n- next\n"


def test_loose_and_tight_lists() -> None:
    # Items holding paragraphs are a loose list (blank lines between them), as CommonMark
    # writes it; Sphinx's compact ("simple") lists stay tight.
    assert md("<ul><li><p>a</p></li><li><p>b</p></li></ul>") == "- a\n\n- b\n"
    assert md('<ul class="simple"><li><p>a</p></li><li><p>b</p></li></ul>') == "- a\n- b\n"
    # A tight item's blocks follow each other where no blank line is needed.
    html = "<ul><li>a<blockquote><p>b</p></blockquote><pre>c</pre></li><li>d</li></ul>"
    assert md(html) == "- a\n  > b\n  ```\n  c\n  ```\n- d\n"
    assert md("<ul><li><h2>T</h2>text<hr>more</li></ul>") == "- ## T\n  text\n  ***\n  more\n"
    # A paragraph after a nested list or a quote would continue it: a blank line stays.
    assert md("<ul><li><blockquote>q</blockquote>after</li></ul>") == "- > q\n\n  after\n"


def test_ordered_item_content_column() -> None:
    html = "<ol><li><p>a</p><blockquote>q</blockquote></li></ol>"
    assert md(html) == "1. a\n\n   > q\n"


def test_adjacent_lists_do_not_merge() -> None:
    assert md("<ul><li>a</li></ul><ul><li>b</li></ul>") == "- a\n\n* b\n"
    assert md("<ol><li>a</li></ol><ol><li>b</li></ol>") == "1. a\n\n1) b\n"


def test_empty_href_is_still_a_link() -> None:
    assert md('<p><a href="">link</a> <a href="#">top</a></p>') == "[link]() top\n"


def test_empty_list_items_kept() -> None:
    # A browser shows their bullets (and counts them in an <ol>); so does CommonMark.
    assert md("<ul><li></li><li> </li><li>x</li></ul>") == "-\n-\n- x\n"
    assert md("<ol><li>a</li><li></li><li>c</li></ol>") == "1. a\n2.\n3. c\n"
    assert md("<p>a</p><blockquote> </blockquote>") == "a\n\n>\n"


def test_text_between_list_items_is_not_an_item() -> None:
    assert md("<ul><div>head</div><li>a</li></ul>") == "head\n\n- a\n"


def test_list_after_paragraph() -> None:
    assert md("<p>intro</p><ul><li>a</li></ul><p>after</p>") == "intro\n\n- a\n\nafter\n"


def test_stripped_elements() -> None:
    html = (
        "<p>keep</p><script>alert(1)</script><style>p{}</style><noscript>ns</noscript>"
        "<template><p>t</p></template><nav><a href='/'>home</a></nav><svg><text>s</text></svg>"
        "<iframe src='x'></iframe><!-- comment --><p>also</p>"
    )
    assert md(html) == "keep\n\nalso\n"


def test_head_is_not_content() -> None:
    assert md("<html><head><title>T</title><style>x</style></head><body>b</body></html>") == "b\n"


def test_form_controls_dropped_text_kept() -> None:
    html = "<form><label>Name <input name=n></label><select><option>o</option></select>"
    html += "<textarea>t</textarea><button>Go</button></form>"
    assert md(html) == "Name\n"


def test_hidden_elements_dropped() -> None:
    assert md("<p>a<span hidden>x</span>b</p>") == "ab\n"
    assert md('<p>a<span aria-hidden="true">x</span>b</p>') == "ab\n"
    assert md('<p>a<span aria-hidden="false">x</span>b</p>') == "axb\n"
    assert md('<p>a<span style="display: none">x</span>b</p>') == "ab\n"
    assert md('<div role="navigation"><a href="/">home</a></div><p>text</p>') == "text\n"


def test_hidden_element_keeps_following_text() -> None:
    assert md("<p>a <i hidden>x</i> tail <b hidden>y</b></p>") == "a tail\n"


# -- beyond the spec ---------------------------------------------------------------------


def test_blockquote() -> None:
    assert md("<blockquote><p>a</p><p>b</p></blockquote>") == "> a\n>\n> b\n"


def test_nested_blockquotes() -> None:
    html = "<blockquote>a<blockquote>b</blockquote>c</blockquote>"
    assert md(html) == "> a\n>\n> > b\n>\n> c\n"


def test_blockquote_with_list() -> None:
    assert md("<blockquote><ul><li>a</li><li>b</li></ul></blockquote>") == "> - a\n> - b\n"


def test_images() -> None:
    assert md('<img src="/i.png" alt="An image">') == "![An image](/i.png)\n"
    assert md('<img src="/i.png">') == "![](/i.png)\n"
    assert md('<img alt="[x]" src="i.png">') == "![\\[x\\]](i.png)\n"


def test_lazy_and_inline_data_images() -> None:
    html = '<img src="data:image/gif;base64,R0lG" data-src="/real.jpg" alt="a">'
    assert md(html) == "![a](/real.jpg)\n"
    assert md('<img src="data:image/png;base64,AAAA" alt="pixel">') == "pixel\n"
    assert md("<p>a<img>b</p>") == "ab\n"
    assert md('<img srcset="/s.jpg 1x, /l.jpg 2x" alt="s">') == "![s](/s.jpg)\n"


def test_linked_image() -> None:
    assert (
        md('<a href="/big.jpg"><img src="/small.jpg" alt=""></a>')
        == "[![](/small.jpg)](/big.jpg)\n"
    )


def test_strikethrough() -> None:
    assert md("<p><del>a</del> <s>b</s> <strike>c</strike></p>") == "~~a~~ ~~b~~ ~~c~~\n"


def test_superscript_and_subscript() -> None:
    assert md("<p>x<sup>2</sup> H<sub>2</sub>O</p>") == "x<sup>2</sup> H<sub>2</sub>O\n"


def test_horizontal_rule() -> None:
    assert md("<p>a</p><hr><p>b</p>") == "a\n\n---\n\nb\n"


def test_line_break() -> None:
    assert md("<p>a<br>b<br/>c</p>") == "a\\\nb\\\nc\n"


def test_line_breaks_at_edges_dropped() -> None:
    assert md("<p><br>a<br></p>") == "a\n"
    assert md("<p>a<br><br>b</p>") == "a\n\nb\n"  # an empty line: a paragraph break
    assert md("<ul><li>a<br> <br>b<br>c</li></ul>") == "- a\n\n  b\\\n  c\n"


def test_line_break_in_emphasis() -> None:
    assert md("<p><b>a<br>b</b></p>") == "**a\\\nb**\n"


def test_code_block() -> None:
    assert md("<pre>x = 1\n  y</pre>") == "```\nx = 1\n  y\n```\n"


def test_code_block_language() -> None:
    assert md('<pre><code class="language-python">x</code></pre>') == "```python\nx\n```\n"
    assert md('<pre class="lang-js">x</pre>') == "```js\nx\n```\n"
    assert md('<div class="highlight-python3"><pre>x</pre></div>') == "```python\nx\n```\n"
    html = '<div class="highlight-c notranslate"><div class="highlight"><pre>x</pre></div></div>'
    assert md(html) == "```c\nx\n```\n"
    assert (
        md('<div class="highlight highlight-source-rust"><pre>x</pre></div>') == "```rust\nx\n```\n"
    )
    assert md('<pre class="sourceCode haskell">x</pre>') == "```haskell\nx\n```\n"
    assert md('<pre data-lang="go">x</pre>') == "```go\nx\n```\n"
    assert md('<pre><code class="hljs python">x</code></pre>') == "```python\nx\n```\n"
    assert (
        md('<pre class="prettyprint"><code class="notalanguage">x</code></pre>') == "```\nx\n```\n"
    )


def test_pygments_line_number_table_is_just_the_code() -> None:
    html = (
        '<div class="highlight-python"><table class="highlighttable"><tr>'
        '<td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td>'
        '<td class="code"><div class="highlight"><pre>a = 1\nb = 2</pre></div></td>'
        "</tr></table></div>"
    )
    assert md(html) == "```python\na = 1\nb = 2\n```\n"


def test_code_block_fence_longer_than_content_backticks() -> None:
    assert md("<pre>```\ninner\n```</pre>") == "````\n```\ninner\n```\n````\n"


def test_code_block_keeps_markup_text_unescaped() -> None:
    html = "<pre><span>*a*</span> <b>[x](y)</b>\n# not a heading</pre>"
    assert md(html) == "```\n*a* [x](y)\n# not a heading\n```\n"


def test_code_block_whitespace() -> None:
    # Verbatim: the parser drops the newline right after <pre>, nothing else goes.
    assert md("<pre>\n\na  \n\n\n\nb\n\n</pre>") == "```\n\na  \n\n\n\nb\n\n```\n"
    assert md("<pre>a\r\nb</pre>") == "```\na\nb\n```\n"
    assert md("<pre>a<br>b</pre>") == "```\na\nb\n```\n"
    assert md("<pre>  </pre>") == "```\n```\n"


def test_code_block_in_blockquote() -> None:
    assert md("<blockquote><pre>a\n\nb</pre></blockquote>") == "> ```\n> a\n>\n> b\n> ```\n"


def test_definition_list() -> None:
    html = "<dl><dt>term</dt><dd>definition</dd><dt>t2</dt><dd><p>d2</p><p>more</p></dd></dl>"
    assert md(html) == "**term**\n\ndefinition\n\n**t2**\n\nd2\n\nmore\n"


def test_figure_with_caption() -> None:
    html = '<figure><img src="/a.png" alt="A"><figcaption>The caption</figcaption></figure>'
    assert md(html) == "![A](/a.png)\n\nThe caption\n"


def test_details_summary() -> None:
    html = "<details><summary>More</summary><p>hidden text</p></details>"
    assert md(html) == "**More**\n\nhidden text\n"


def test_summary_holding_a_heading_is_the_heading_not_bold_too() -> None:
    html = (
        "<details open><summary><h2 id='s'><a href='#s'><strong>Setup</strong></a>"
        "<a href='#s' aria-hidden='true'></a></h2></summary><p>Steps.</p></details>"
    )
    assert md(html) == "## [**Setup**](#s)\n\nSteps.\n"


def test_quotation() -> None:
    assert md("<p>He said <q>hi</q>.</p>") == "He said \u201chi\u201d.\n"


def test_presentational_tags_unwrapped() -> None:
    assert md("<p><span>a</span><font>b</font> <small>c</small> <abbr>d</abbr></p>") == "ab c d\n"


def test_divs_separate_blocks() -> None:
    assert md("<div>a</div><div>b<div>c</div>d</div>") == "a\n\nb\n\nc\n\nd\n"


def test_custom_elements_are_blocks() -> None:
    assert md("<my-card>a</my-card><my-card>b</my-card>") == "a\n\nb\n"


def test_link_around_blocks_links_each_block() -> None:
    html = '<a href="/story"><h3>Title</h3><p>Summary</p></a>'
    assert md(html) == "### [Title](/story)\n\n[Summary](/story)\n"


def test_emphasis_around_list() -> None:
    assert md("<b><ul><li>a</li><li>b</li></ul></b>") == "- **a**\n- **b**\n"


# -- tables ----------------------------------------------------------------------------------


def test_table() -> None:
    html = "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>"
    assert md(html) == "| A | B |\n| --- | --- |\n| 1 | 2 |\n"


def test_table_thead_tbody() -> None:
    html = (
        "<table><thead><tr><th>A</th><th>B</th></tr></thead>"
        "<tbody><tr><td>1</td><td>2</td></tr></tbody></table>"
    )
    assert md(html) == "| A | B |\n| --- | --- |\n| 1 | 2 |\n"


def test_table_without_header_uses_first_row() -> None:
    html = "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"
    assert md(html) == "| a | b |\n| --- | --- |\n| c | d |\n"


def test_table_pipes_escaped() -> None:
    html = "<table><tr><th>a|b</th><th><code>x|y</code></th></tr></table>"
    assert md(html) == "| a\\|b | `x\\|y` |\n| --- | --- |\n"


def test_table_colspan_pads_rows() -> None:
    html = (
        "<table><tr><th>a</th><th>b</th><th>c</th></tr>"
        '<tr><td colspan="2">wide</td><td>z</td></tr><tr><td>short</td></tr></table>'
    )
    assert md(html) == "| a | b | c |\n| --- | --- | --- |\n| wide |  | z |\n| short |  |  |\n"


def test_table_rowspan_keeps_columns() -> None:
    html = (
        "<table><tr><th>a</th><th>b</th></tr>"
        '<tr><td rowspan="2">r</td><td>x</td></tr><tr><td>y</td></tr></table>'
    )
    assert md(html) == "| a | b |\n| --- | --- |\n| r | x |\n|  | y |\n"


def test_table_cell_breaks_and_blocks() -> None:
    html = "<table><tr><th>h</th><th>i</th></tr>"
    html += "<tr><td>a<br>b</td><td><p>p1</p><p>p2</p></td></tr></table>"
    assert md(html) == "| h | i |\n| --- | --- |\n| a<br>b | p1<br>p2 |\n"


def test_table_cell_list_and_code_block() -> None:
    html = "<table><tr><th>h</th><th>i</th></tr>"
    html += "<tr><td><ul><li>a</li><li>b</li></ul></td><td><pre>x  y</pre></td></tr></table>"
    assert md(html) == "| h | i |\n| --- | --- |\n| a<br>b | `x y` |\n"


def test_nested_table_flattened() -> None:
    html = (
        "<table><tr><th>outer</th><th>o2</th></tr><tr><td>a</td>"
        "<td><table><tr><td>x</td><td>y</td></tr><tr><td>z</td></tr></table></td></tr></table>"
    )
    assert md(html) == "| outer | o2 |\n| --- | --- |\n| a | x y<br>z |\n"


def test_table_caption() -> None:
    html = "<table><caption>Cap</caption><tr><th>a</th><th>b</th></tr></table>"
    assert md(html) == "Cap\n\n| a | b |\n| --- | --- |\n"


def test_single_column_table_without_header_is_layout() -> None:
    html = "<table><tr><td><p>para</p><ul><li>item</li></ul></td></tr><tr><td>two</td></tr></table>"
    assert md(html) == "para\n\n- item\n\ntwo\n"


def test_single_column_table_with_header_is_data() -> None:
    html = "<table><tr><th>Name</th></tr><tr><td>x</td></tr></table>"
    assert md(html) == "| Name |\n| --- |\n| x |\n"


def test_table_of_page_sections_is_layout() -> None:
    html = "<table><tr><td><h2>News</h2><p>a</p></td><td><p>b</p><p>c</p><p>d</p></td></tr></table>"
    assert md(html) == "## News\n\na\n\nb\n\nc\n\nd\n"
    html = "<table><tr><th>h</th><th>i</th></tr><tr><td><h2>x</h2></td><td>y</td></tr></table>"
    assert md(html) == "| h | i |\n| --- | --- |\n| x | y |\n"


def test_presentation_table_is_layout() -> None:
    html = '<table role="presentation"><tr><td>a</td><td>b</td></tr></table>'
    assert md(html) == "a\n\nb\n"


def test_empty_table_dropped() -> None:
    assert md("<p>a</p><table><tr><td> </td><td></td></tr></table><p>b</p>") == "a\n\nb\n"


def test_table_in_list_item() -> None:
    html = "<ul><li>t<table><tr><th>a</th><th>b</th></tr></table></li></ul>"
    assert md(html) == "- t\n\n  | a | b |\n  | --- | --- |\n"


def test_table_inside_link() -> None:
    html = '<a href="/x"><table><tr><td>a</td><td>b</td></tr></table></a>'
    assert md(html) == "| a | b |\n| --- | --- |\n"


def test_table_alignment_from_header() -> None:
    html = (
        '<table><tr><th align="right">a</th><th style="text-align: center">b</th><th>c</th></tr>'
        "<tr><td>1</td><td>2</td><td>3</td></tr></table>"
    )
    assert md(html) == "| a | b | c |\n| ---: | :---: | --- |\n| 1 | 2 | 3 |\n"


def test_task_list_checkboxes() -> None:
    html = '<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox">todo</li>'
    html += '<li>not <input type="checkbox"> a task</li></ul>'
    assert md(html) == "- [x] done\n- [ ] todo\n- not a task\n"


def test_nested_ordered_list_not_starting_at_one() -> None:
    # "5." cannot interrupt a paragraph in CommonMark: it needs the blank line.
    assert md('<ul><li>text<ol start="5"><li>x</li></ol></li></ul>') == "- text\n\n  5. x\n"
    assert md("<ul><li>text<ol><li>x</li></ol></li></ul>") == "- text\n  1. x\n"


def test_void_elements_libxml2_does_not_know_keep_what_follows() -> None:
    # libxml2's HTML 4 parser nests what follows <embed>, <source>, <track> inside them.
    assert md("<p>before<embed src='/x.swf'> after embed</p><p>more</p>") == (
        "before after embed\n\nmore\n"
    )
    assert md("<div><source src='x'>text after a stray source</div>") == (
        "text after a stray source\n"
    )
    html = "<figure><picture><source srcset='/a.webp'><img src='/a.jpg' alt='pic'></picture>"
    assert md(html + "<figcaption>Cap</figcaption></figure>") == "![pic](/a.jpg)\n\nCap\n"


def test_picture_source_serves_an_img_without_src() -> None:
    html = "<picture><source srcset='/a.webp 1x, /b.webp 2x'><source srcset='/c.jpg'>"
    assert md(html + "<img alt='p'></picture>") == "![p](/a.webp)\n"


def test_site_specific_lazy_image_attribute() -> None:
    html = '<img src="data:image/gif;base64,R0lG" data-src-mini="//cdn.x.com/s.jpg" alt="">'
    assert md(html, "https://x.com/") == "![](https://cdn.x.com/s.jpg)\n"
    assert md('<img data-lazy-loaded="true" data-src-w="640" alt="flag">') == "flag\n"


def test_math_becomes_its_text() -> None:
    assert md('<p><math alttext="x^2"><mi>x</mi><mn>2</mn></math> is</p>') == "x^2 is\n"
    html = "<math><mi>a</mi><mo>+</mo><mi>b</mi><annotation encoding='text/plain'>j</annotation>"
    assert md(f"<p>{html}</math></p>") == "a+b\n"
    tex = "<annotation encoding='application/x-tex'>y_1</annotation>"
    assert md(f"<p><math><semantics><mi>y</mi>{tex}</semantics></math></p>") == "y_1\n"


def test_url_entities_and_backslashes_survive_markdown() -> None:
    # A literal "&amp;" in a URL (a double-escaped page) must not be decoded by the renderer.
    assert md('<a href="https://x.com/?a=1&amp;amp;b=2">t</a>') == (
        "[t](https://x.com/?a=1\\&amp;b=2)\n"
    )
    assert md('<a href="https://x.com/?a=1&amp;copy=2">t</a>') == "[t](https://x.com/?a=1&copy=2)\n"
    assert md('<a href="https://x.com/a\\_b\\c">t</a>') == "[t](https://x.com/a\\\\_b\\c)\n"
    assert md('<a href="/a?b=1&amp;amp;c]"><code>f]</code></a>') == (
        '<a href="/a?b=1&amp;amp;c]">`f]`</a>\n'
    )


def test_hiding_style_in_capitals() -> None:
    assert md('<p>a</p><div style="DISPLAY: NONE">s</div><p style="Visibility:Hidden">v</p>') == (
        "a\n"
    )
