"""Tables: GFM tables for data, ordinary blocks for layout, one line for nested tables."""

from __future__ import annotations

from lxml import etree

from webtap.convert._blocks import LANG, Blocks
from webtap.convert._escape import escape_line_start
from webtap.convert._writer import BR, End, Table, TableMode, parse_int

__all__ = ["Tables"]


_LAYOUT = Table(TableMode.LAYOUT)  # these two carry no rows: one of each serves every table
_FLAT = Table(TableMode.FLAT)


class Tables(Blocks):
    """Openers of the table elements."""

    def open_table(self, el: etree._Element) -> End:
        if self.flat or (self.tables and self.tables[-1].mode is TableMode.DATA):
            self.pieces.append(self.flat_sep)
            self.tables.append(_FLAT)
            return self.end_flat_table
        self.flush()
        if "highlighttable" in (el.get("class") or ""):
            # Pygments' code-with-line-numbers table: the code block alone.
            for cell in el.xpath(".//td[contains(@class, 'linenos')]"):
                cell.getparent().remove(cell)
            wrapper = el.getparent()
            match = LANG.search(wrapper.get("class") or "") if wrapper is not None else None
            if match:  # Sphinx puts highlight-<language> on the table's parent
                for pre in el.iter("pre"):
                    pre.set("data-lang", match.group(1))
            self.tables.append(_LAYOUT)
            return self.end_layout_table
        if _is_layout(el):
            self.tables.append(_LAYOUT)
            return self.end_layout_table
        table = Table(TableMode.DATA)
        self.tables.append(table)
        saved_active = self.active
        self.active = []

        def end() -> None:
            self.pieces.clear()
            self.tables.pop()
            self.active = saved_active
            for mark in saved_active:
                mark.start = 0
            if table.caption:
                self.emit([escape_line_start(table.caption)])
            lines = _table_lines(table.rows, table.aligns)
            if lines:
                self.emit(lines)

        return end

    def end_flat_table(self) -> None:
        self.tables.pop()
        self.pieces.append(self.flat_sep)

    def end_layout_table(self) -> None:
        self.tables.pop()
        self.flush()

    def data_table(self) -> Table | None:
        """The innermost open table if it is a data table."""
        if self.tables and self.tables[-1].mode is TableMode.DATA:
            return self.tables[-1]
        return None

    def in_flat_table(self) -> bool:
        return bool(self.tables) and self.tables[-1].mode is TableMode.FLAT

    def open_thead(self, el: etree._Element) -> End:
        return None

    def open_row(self, el: etree._Element) -> End:
        table = self.data_table()
        if table is not None:
            table.rows.append([])
            return None
        if self.flat or self.in_flat_table():
            self.pieces.append(self.flat_sep)
            return None
        return self.open_block(el)

    def open_cell(self, el: etree._Element) -> End:
        table = self.data_table()
        if table is None:
            if self.flat or self.in_flat_table():
                self.pieces.append(" ")
                return None
            return self.open_block(el)
        if not table.rows:
            table.rows.append([])
        self.pieces.clear()
        self.flat += 1
        self.flat_sep = BR
        colspan = min(max(parse_int(el.get("colspan"), 1), 1), 100)
        rowspan = min(max(parse_int(el.get("rowspan"), 1), 1), 1000)
        row = table.rows[-1]
        if len(table.rows) == 1:
            table.aligns += [_alignment(el)] * colspan

        def end() -> None:
            self.flat -= 1
            text = "<br>".join(self.flat_text()).replace("|", "\\|")
            row.append((text, colspan, rowspan))

        return end

    def open_caption(self, el: etree._Element) -> End:
        table = self.data_table()
        if table is None:
            return self.open_block(el)
        self.pieces.clear()
        self.flat += 1
        self.flat_sep = " "

        def end() -> None:
            self.flat -= 1
            table.caption = " ".join(self.flat_text())

        return end


def _is_layout(table: etree._Element) -> bool:
    """A table used for layout is not a data table: role=presentation, one cell a row, or
    cells holding headings or several blocks; a header cell (``th``) anywhere means data."""
    if table.get("role") in ("presentation", "none"):
        return True
    if _HAS_HEADER_CELL(table):
        return False
    widest = 0
    for child in table.iterchildren("tr", "thead"):
        for tr in child.iterchildren("tr") if child.tag == "thead" else (child,):
            widest = max(widest, sum(1 for _ in tr.iterchildren("td")))
    return widest <= 1 or _HAS_PAGE_IN_CELL(table)


_HAS_HEADER_CELL = etree.XPath("boolean(tr/th | thead/tr/th)")
_HAS_PAGE_IN_CELL = etree.XPath(
    "boolean(.//td[.//h1 or .//h2 or .//h3 or .//h4 or .//h5 or .//h6"
    " or count(.//p | .//div | .//ul | .//ol | .//blockquote | .//pre | .//figure) >= 3])"
)


def _alignment(cell: etree._Element) -> str:
    """The delimiter cell for a header cell's ``align`` or ``text-align``."""
    align = cell.get("align")
    if align is None:
        style = cell.get("style")
        if not style or "text-align" not in style:
            return "---"
        align = style.split("text-align", 1)[1].lstrip(" :").split(";", 1)[0]
    align = align.strip().lower()
    return {"center": ":---:", "right": "---:", "left": ":---"}.get(align, "---")


def _table_lines(rows: list[list[tuple[str, int, int]]], aligns: list[str]) -> list[str]:
    """GFM table lines: spans filled with empty cells, every row as wide as the widest."""
    grid: list[list[str]] = []
    carry: dict[int, int] = {}  # column -> rows a rowspan still covers
    for row in rows:
        cells: list[str] = []
        for text, colspan, rowspan in row:
            _fill_carried(cells, carry)
            for i in range(colspan):
                if rowspan > 1:
                    carry[len(cells)] = rowspan - 1
                cells.append(text if i == 0 else "")
        _fill_carried(cells, carry)
        if any(cells):
            grid.append(cells)
    if not grid:
        return []
    width = max(len(cells) for cells in grid)
    lines = []
    for cells in grid:
        cells += [""] * (width - len(cells))
        lines.append("| " + " | ".join(cells) + " |")
    aligns = aligns[:width] + ["---"] * (width - len(aligns))
    lines.insert(1, "| " + " | ".join(aligns) + " |")
    return lines


def _fill_carried(cells: list[str], carry: dict[int, int]) -> None:
    """Empty cells where a rowspan from a row above still covers the next column."""
    while carry.get(len(cells)):
        carry[len(cells)] -= 1
        cells.append("")
