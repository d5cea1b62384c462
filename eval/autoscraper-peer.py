"""AutoScraper (PyPI `autoscraper`) given the same examples as gabarit's wrappers by example.

Reads one JSON object on stdin: {"draws": [{"train": [{"html": ..., "values": {field: [value, ...]}}],
"test": [{"id": ..., "html": ...}]}]}. Per draw, the scraper is built from the training pages (the first
with `build`, the others with `build(update=True)`), then asked for its exact rules' results on each test
page, grouped by field (`get_result_exact(group_by_alias=True)`). Writes one JSON object on stdout:
{"version": ..., "draws": [{"results": {page id: {field: [value, ...]}}, "seconds": ...}]}; a page where
the scraper throws gets {"error": message}.
"""
import json
import sys
import time
from importlib.metadata import version

from autoscraper import AutoScraper


def main() -> None:
    job = json.load(sys.stdin)
    out = {"version": version("autoscraper"), "draws": []}
    for draw in job["draws"]:
        t0 = time.perf_counter()
        scraper = AutoScraper()
        for k, page in enumerate(draw["train"]):
            wanted = {field: values for field, values in page["values"].items() if values}
            scraper.build(html=page["html"], wanted_dict=wanted, update=k > 0)
        results = {}
        for page in draw["test"]:
            try:
                got = scraper.get_result_exact(html=page["html"], group_by_alias=True)
                results[page["id"]] = {field: [str(v) for v in values] for field, values in got.items()}
            except Exception as e:  # a page the scraper cannot read counts as found nothing
                results[page["id"]] = {"error": str(e)}
        out["draws"].append({"results": results, "seconds": time.perf_counter() - t0})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
