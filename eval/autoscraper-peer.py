"""AutoScraper (PyPI `autoscraper`) given the same examples as gabarit's wrappers by example.

Reads one JSON object on stdin: {"pages": {page id: html}, "draws": [{"train": [{"id": ..., "values":
{field: [value, ...]}}], "test": [page id, ...]}]}. Per draw, the scraper is built from the training pages
(the first with `build`, the others with `build(update=True)`), then asked for its exact rules' results on
each test page, grouped by field, duplicates removed, in both of its modes: its exact rules
(`get_result_exact`) and its similar ones (`get_result_similar`, what it offers for lists). Each page is
parsed once (the scraper's own parse) for every draw. Writes one JSON object on stdout: {"version": ...,
"draws": [{"results": {page id: {"exact": {field: [value, ...]}, "similar": {...}}}, "seconds": ...}]};
a page where the scraper throws gets {"error": message}.
"""
import json
import sys
import time
from importlib.metadata import version

from autoscraper import AutoScraper

def main() -> None:
    job = json.load(sys.stdin)
    pages = job["pages"]
    soups = {}
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
                if pid not in soups:
                    soups[pid] = AutoScraper._get_soup(html=pages[pid])
                got = {}
                for mode, get in (("exact", scraper.get_result_exact), ("similar", scraper.get_result_similar)):
                    found = get(soup=soups[pid], group_by_alias=True, unique=True)
                    got[mode] = {field: [str(v) for v in values] for field, values in found.items()}
                results[pid] = got
            except Exception as e:  # a page the scraper cannot read counts as found nothing
                results[pid] = {"error": str(e)}
        out["draws"].append({"results": results, "seconds": time.perf_counter() - t0})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
