"""trafilatura (PyPI `trafilatura`) on pages sent one by one, for the content evaluation (eval/peers.ts).

First writes one line: {"version": trafilatura's version}. Then reads JSON lines on stdin, one per page:
{"html": the page decoded as gabarit decodes it, "url": ..., "precision": bool}, and answers each with one
JSON line: {"title": ..., "content": ..., "ms": ...}, or {"error": message} when trafilatura throws.
The content is trafilatura's HTML output (`output_format="html"`, its other settings left at their
defaults, `favor_precision` as asked); its text is then made by gabarit's own code, as for the other
peers. The title is the one trafilatura's metadata gives ('' when none).
"""
import json
import sys
import time
from importlib.metadata import version

import lxml.html
from trafilatura import extract


def run(page: dict) -> dict:
    t0 = time.perf_counter()
    out = extract(page["html"], url=page["url"], output_format="html", with_metadata=True, favor_precision=bool(page.get("precision")))
    title = ""
    content = ""
    if out:
        doc = lxml.html.fromstring(out)
        meta = doc.xpath('//head/meta[@name="title"]/@content')
        title = meta[0] if meta else ""
        body = doc.find("body")
        content = lxml.html.tostring(body, encoding="unicode") if body is not None else out
    return {"title": title, "content": content, "ms": (time.perf_counter() - t0) * 1000}


def main() -> None:
    print(json.dumps({"version": version("trafilatura")}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        page = json.loads(line)
        try:
            res = run(page)
        except Exception as e:  # a page the peer fails on counts as empty, with its message
            res = {"title": "", "content": "", "error": f"{type(e).__name__}: {e}", "ms": 0}
        print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
