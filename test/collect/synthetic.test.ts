/**
 * INDESIT and structural clustering on the generated sites of test/fixtures/synthetic-sites.ts, written to
 * a temporary directory and read as a static host serves them (extensionless links): optional sections,
 * a language switcher whose every link is dead, index pages reached through the site's navigation only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { indesit } from '../../src/collect/indesit.ts';
import { COLLECT_DEFAULTS } from '../../src/structure/defaults.ts';
import { clusterSourceBySchema } from '../../src/cluster/schema.ts';
import { adjustedRandIndex, purity, setScore } from '../../src/eval/metrics.ts';
import { DirSource } from '../../src/site/dir-source.ts';
import { newsroom, referenceDocs, shop, type SyntheticSite } from '../fixtures/synthetic-sites.ts';

function write(site: SyntheticSite): string {
  const dir = mkdtempSync(join(tmpdir(), `gabarit-${site.name}-`));
  for (const [key, html] of site.files) {
    mkdirSync(dirname(join(dir, key)), { recursive: true });
    writeFileSync(join(dir, key), html);
  }
  return dir;
}

function classKeys(site: SyntheticSite, cls: string): string[] {
  return [...site.files.keys()].filter((k) => site.classes[cls]!.test(k)).sort();
}

/** Runs INDESIT from the first, middle and last page of a class; checks recall, precision and downloads. */
async function collectClass(site: SyntheticSite, cls: string, check: (r: Awaited<ReturnType<typeof indesit>>, gold: string[]) => void): Promise<void> {
  const dir = write(site);
  try {
    const gold = classKeys(site, cls);
    for (const sample of [gold[0]!, gold[gold.length >> 1]!, gold[gold.length - 1]!]) {
      const r = await indesit(new DirSource(dir, { entry: site.entry }), sample);
      const s = setScore(r.pages.map((p) => p.key), gold);
      assert.ok(s.recall >= 0.95 && s.precision >= 0.95, `${site.name} ${cls} from ${sample}: R ${s.recall} P ${s.precision}`);
      assert.ok(r.complete);
      check(r, gold);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('reference docs: pages whose optional sections differ are one class; dead language links cost n each, not one per page', async () => {
  await collectClass(referenceDocs(), 'ref', (r, gold) => {
    // Every page links to 3 missing languages: 3 × 40 dead links if each were tried.
    const perVariant = COLLECT_DEFAULTS.sameClusterLinks;
    assert.ok(r.deadLinks <= 3 * perVariant + 3, `dead links tried: ${r.deadLinks}`);
    const fetched = r.downloads - r.deadLinks;
    assert.ok(fetched <= 1.5 * gold.length + r.indexPages.length, `fetched ${fetched} for ${gold.length} pages, ${r.indexPages.length} index pages`);
  });
});

test('shop: product pages with and without reviews and specifications are one class', async () => {
  await collectClass(shop(), 'product', (r, gold) => {
    assert.ok(r.downloads <= 1.5 * gold.length + r.indexPages.length, `downloads ${r.downloads}`);
  });
});

test('newsroom: articles that link to no other article are found through the site navigation', async () => {
  await collectClass(newsroom(), 'story', (r) => {
    assert.ok(r.indexPath.length > 0, 'an index cluster (the section pages) was followed');
  });
});

test('structural clustering of the synthetic sites: one cluster per class', async () => {
  for (const site of [referenceDocs(), shop(), newsroom()]) {
    const dir = write(site);
    try {
      const r = await clusterSourceBySchema(new DirSource(dir, { entry: site.entry }), { schema: { offSiteLinks: false } });
      const gold = new Map<string, string>();
      for (const k of site.files.keys()) for (const [c, re] of Object.entries(site.classes)) if (re.test(k)) gold.set(k, c);
      const pred = new Map([...r.assignment].filter(([k]) => gold.has(k)));
      assert.ok(purity(pred, gold) >= 0.95, `${site.name} purity ${purity(pred, gold)}`);
      assert.ok(adjustedRandIndex(pred, gold) >= 0.8, `${site.name} ARI ${adjustedRandIndex(pred, gold)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
