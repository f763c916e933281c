# The drilling template (layout.svg, 1:1 in mm) cut into A4 and Letter pages that print at 100 %:
# the pages overlap, and the same + marks, numbered, print on both sides of every seam, so the pages
# are taped together by laying mark on mark. Each page carries a 50 mm bar to check the printer's scale.
import re
import xml.etree.ElementTree as ET

from hwgen_svg import SVG_NS

PAPERS = {"A4": (297.0, 210.0), "Letter": (279.4, 215.9)}  # landscape
PRINT_MARGIN = 10.0  # printers do not print the edge of a sheet
OVERLAP = 15.0  # each page repeats this much of its neighbour
MARK = 5.0  # half-length of an alignment mark's arms


def _size(svg_text):
    root = ET.fromstring(svg_text.split("\n", 1)[1] if svg_text.startswith("<?xml") else svg_text)
    vb = [float(v) for v in root.get("viewBox").split()]
    return root, vb[2], vb[3]


def tiles(svg_text, paper):
    """[(name, svg text)] of the pages of one paper size, row by row."""
    ET.register_namespace("", SVG_NS)
    root, W, H = _size(svg_text)
    pw, ph = PAPERS[paper]
    aw, ah = pw - 2 * PRINT_MARGIN, ph - 2 * PRINT_MARGIN - 12.0  # 12 mm for the page's own label
    step_x, step_y = aw - OVERLAP, ah - OVERLAP
    cols = max(1, int(-(-(W - OVERLAP) // step_x)))
    rows = max(1, int(-(-(H - OVERLAP) // step_y)))
    # marks along every seam, in the template's own coordinates
    marks = []
    for c in range(1, cols):
        for r in range(rows):
            x = c * step_x + OVERLAP / 2
            for y in (r * step_y + ah * 0.3, r * step_y + ah * 0.7):
                marks.append((x, y))
    for r in range(1, rows):
        for c in range(cols):
            y = r * step_y + OVERLAP / 2
            for x in (c * step_x + aw * 0.3, c * step_x + aw * 0.7):
                marks.append((x, y))
    inner = "".join(ET.tostring(child, encoding="unicode") for child in root)
    inner = re.sub(r' xmlns(:\w+)?="[^"]+"', "", inner)
    pages = []
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * step_x, r * step_y
            name = "%s-%d-%d" % (paper, r + 1, c + 1)
            out = [
                '<?xml version="1.0" encoding="UTF-8"?>',
                '<svg xmlns="%s" width="%gmm" height="%gmm" viewBox="0 0 %g %g">' % (SVG_NS, pw, ph, pw, ph),
                '<rect x="0" y="0" width="%g" height="%g" fill="#fff"/>' % (pw, ph),
                '<text x="%g" y="%g" font-size="4" font-family="sans-serif">drilling template, %s page %d of %d '  # noqa: E501
                "(row %d of %d, column %d of %d): print at 100 %%, tape + on +</text>"
                % (
                    PRINT_MARGIN,
                    PRINT_MARGIN + 4,
                    paper,
                    r * cols + c + 1,
                    rows * cols,
                    r + 1,
                    rows,
                    c + 1,
                    cols,
                ),
                '<svg x="%g" y="%g" width="%g" height="%g" viewBox="%g %g %g %g" overflow="hidden">'
                % (PRINT_MARGIN, PRINT_MARGIN + 12, aw, ah, x0, y0, aw, ah),
                inner,
            ]
            for i, (mx, my) in enumerate(marks):
                if x0 - MARK <= mx <= x0 + aw + MARK and y0 - MARK <= my <= y0 + ah + MARK:
                    out.append(
                        '<g class="mark" data-mark="%d" stroke="#d00" stroke-width="0.25">'
                        '<line x1="%g" y1="%g" x2="%g" y2="%g"/><line x1="%g" y1="%g" x2="%g" y2="%g"/>'
                        '<circle cx="%g" cy="%g" r="1.5" fill="none"/></g>'
                        '<text x="%g" y="%g" font-size="2.5" fill="#d00">%d</text>'
                        % (i + 1, mx - MARK, my, mx + MARK, my, mx, my - MARK, mx, my + MARK, mx, my,
                           mx + 2, my - 2, i + 1)
                    )  # fmt: skip
            # the page's edge of the template, so the overlap is visible
            out.append(
                '<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#888" stroke-width="0.2" '
                'stroke-dasharray="2,2"/>' % (x0, y0, aw, ah)
            )
            out.append("</svg>")
            bar_y = ph - PRINT_MARGIN + 2
            out.append(
                '<g stroke="#000" stroke-width="0.4"><line x1="%g" y1="%g" x2="%g" y2="%g"/>'
                '<line x1="%g" y1="%g" x2="%g" y2="%g"/><line x1="%g" y1="%g" x2="%g" y2="%g"/></g>'
                '<text x="%g" y="%g" font-size="3">50 mm</text>'
                % (PRINT_MARGIN, bar_y, PRINT_MARGIN + 50, bar_y, PRINT_MARGIN, bar_y - 2, PRINT_MARGIN,
                   bar_y, PRINT_MARGIN + 50, bar_y - 2, PRINT_MARGIN + 50, bar_y, PRINT_MARGIN + 52, bar_y)
            )  # fmt: skip
            out.append("</svg>")
            pages.append((name, "\n".join(out)))
    return pages
