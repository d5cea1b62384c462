"""AutoScraper (PyPI `autoscraper`) given the same examples as gabarit's wrappers by example.

Reads one JSON object on stdin: {"pages": {page id: html}, "draws": [{"train": [{"id": ..., "values":
{field: [value, ...]}}], "test": [page id, ...]}]}. Per draw, the scraper is built from the training pages
(the first with `build`, the others with `build(update=True)`), then asked for its exact rules' results on
each test page, grouped by field (`get_result_exact(group_by_alias=True)`). Each page is parsed once for
every draw (the scraper's parse, kept: it only reads the tree). Writes one JSON object on stdout:
{"version": ..., "draws": [{"results": {page id: {field: [value, ...]}}, "seconds": ...}]}; a page where
the scraper throws gets {"error": message}.
"""
import json
import sys
import time
from importlib.metadata import version

from autoscraper import AutoScraper

_parse = AutoScraper._get_soup.__func__
_soups = {}


def _cached_soup(cls, url=None, html=None, request_args=None):
    if html is None:
        return _parse(cls, url, html, request_args)
    soup = _soups.get(id(html))
    if soup is None or soup[0] is not html:
        soup = (html, _parse(cls, url, html, request_args))
        _soups[id(html)] = soup
    return soup[1]


AutoScraper._get_soup = classmethod(_cached_soup)


def main() -> None:
    job = json.load(sys.stdin)
    pages = job["pages"]
    out = {"version": version("autoscraper"), "draws": []}
    for draw in job["draws"]:
        t0 = time.perf_counter()
        scraper = AutoScraper()
        for k, page in enumerate(draw["train"]):
            wanted = {field: values for field, values in page["values"].items() if values}
            scraper.build(html=pages[page["id"]], wanted_dict=wanted, update=k > 0)
        results = {}
        for pid in draw["test"]:
            try:
                got = scraper.get_result_exact(html=pages[pid], group_by_alias=True)
                results[pid] = {field: [str(v) for v in values] for field, values in got.items()}
            except Exception as e:  # a page the scraper cannot read counts as found nothing
                results[pid] = {"error": str(e)}
        out["draws"].append({"results": results, "seconds": time.perf_counter() - t0})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
