/**
 * Charset sniffing of undeclared pages (run: `npx tsx eval/charset.eval.ts`): how often `decodeHtml`
 * gives back a page's text when the page declares no charset and is not UTF-8.
 *
 * Samples: corpus pages (single/readability, samesite/dragnet and cleanportaleval, the Chinese pages of
 * sites/thingspanel-docs) whose text is in one script (for a non-Latin script, at least a fifth of the
 * letters outside tags; for accented Latin, 30 accented letters and no other script), with their charset declarations removed and
 * re-encoded (iconv-lite) in the legacy encodings of that script: Japanese → Shift_JIS, EUC-JP; Korean →
 * EUC-KR; Chinese → GB18030, Big5; Cyrillic → windows-1251, KOI8-R; accented Latin → windows-1252,
 * windows-1250. Characters an encoding lacks become '?'; samples that are still valid UTF-8 (no
 * non-ASCII byte) are left out, since the UTF-8 rule decides them. Plus the texts written for the tests
 * (test/fixtures/charset/) in the same encodings.
 *
 * A sample is right when the decoded text equals the text of the same bytes with the true encoding
 * declared (so an equivalent answer, ISO-8859-1 for windows-1252 or GB2312 for GB18030, counts as right).
 * With `jschardet` installed (`npm install --no-save jschardet`), that detector is measured on the same
 * samples (the answer it ranks first; its names CP932, CP949, ascii read as shift_jis, euc-kr,
 * windows-1252), for comparison. Writes eval/results/charset.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { decodeHtml, SNIFF_BYTES, SNIFF_LOW_CONFIDENCE } from '../src/html/charset.ts';
import { formatTable, REPO_ROOT, runEval, writeResults } from './harness.ts';

interface Sample {
  from: string;
  encoding: string;
  bytes: Uint8Array;
  truth: string;
}

/** Scripts, the share of a page's letters they must have, and their legacy encodings. */
const SCRIPTS: ReadonlyArray<{ name: string; letters: RegExp; encodings: readonly string[] }> = [
  { name: 'japanese', letters: /[\u3040-\u30ff]/g, encodings: ['shift_jis', 'euc-jp'] },
  { name: 'korean', letters: /[\uac00-\ud7a3]/g, encodings: ['euc-kr'] },
  { name: 'chinese', letters: /[\u4e00-\u9fff]/g, encodings: ['gb18030', 'big5'] },
  { name: 'cyrillic', letters: /[\u0400-\u04ff]/g, encodings: ['windows-1251', 'koi8-r'] },
  { name: 'latin', letters: /[\u00c0-\u017f]/g, encodings: ['windows-1252', 'windows-1250'] },
];
const OTHER_SCRIPTS = /[\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]/;

function htmlFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.html')).map((f) => join(dir, f));
}

/** The text gabarit decodes when the page declares `charset` (the reference, and how a detector's answer is read). */
function declared(bytes: Uint8Array, charset: string): string {
  return decodeHtml(bytes, `text/html; charset=${charset}`).text;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The encoded samples of one page text (declarations removed). */
function samplesOf(from: string, html: string, minLetters: number): Sample[] {
  const text = html.replace(/charset\s*=\s*["']?[\w-]+/gi, 'x-removed');
  const out: Sample[] = [];
  const ascii = text.replace(/<[^>]*>/g, ' ').match(/[A-Za-z]/g)?.length ?? 0;
  for (const s of SCRIPTS) {
    const n = text.match(s.letters)?.length ?? 0;
    if (n < minLetters) continue;
    if (s.name === 'latin') {
      // accented letters are few in any Latin text; the page must hold no other script
      if (OTHER_SCRIPTS.test(text)) continue;
    } else if (n < 0.2 * (n + ascii) || (s.name === 'chinese' && /[\u3040-\u30ff]/.test(text))) {
      // an English page quoting a few Russian words, or a Japanese page, is not a page of this script
      continue;
    }
    for (const encoding of s.encodings) {
      const bytes = new Uint8Array(iconv.encode(text, encoding));
      if (isUtf8(bytes)) continue;
      out.push({ from, encoding, bytes, truth: declared(bytes, encoding) });
    }
  }
  return out;
}

function corpusSamples(): Sample[] {
  const files = [
    ...htmlFiles(join(CORPUS_DIR, 'single', 'readability')),
    ...htmlFiles(join(CORPUS_DIR, 'samesite', 'dragnet')),
    ...htmlFiles(join(CORPUS_DIR, 'samesite', 'cleanportaleval')),
    ...htmlFiles(join(CORPUS_DIR, 'sites', 'thingspanel-docs', 'pages', 'zh-Hans')),
  ];
  return files.flatMap((f) => samplesOf(f.slice(CORPUS_DIR.length + 1), readFileSync(f, 'utf8'), 30));
}

function fixtureSamples(): Sample[] {
  const dir = join(REPO_ROOT, 'test', 'fixtures', 'charset');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => {
      const text = readFileSync(join(dir, f), 'utf8').trim();
      const html = `<!DOCTYPE html><html><head><title>${text.slice(0, 12)}</title></head><body><main><p>${text}</p></main></body></html>`;
      return samplesOf(`fixture ${f}`, html, 10);
    });
}

type Detector = (bytes: Uint8Array) => { charset: string; confidence: number; text: string };

/** gabarit's own rule (charset.ts): what every command sees. */
const gabarit: Detector = (bytes) => {
  const d = decodeHtml(bytes);
  return { charset: d.charset, confidence: d.confidence ?? 0, text: d.text };
};

/** jschardet's first answer when the package is installed, on the same bytes gabarit's detector reads. */
async function jschardetDetector(): Promise<Detector | undefined> {
  let mod: { detect(b: Buffer): { encoding: string | null; confidence: number } };
  try {
    mod = ((await import('jschardet' as string)) as { default: typeof mod }).default;
  } catch {
    return undefined;
  }
  const alias: Record<string, string> = { cp932: 'shift_jis', cp949: 'euc-kr', ascii: 'windows-1252' };
  return (bytes) => {
    let first = bytes.findIndex((b) => b >= 0x80);
    if (first < 0) first = 0;
    const from = Math.max(0, first - 1024);
    const r = mod.detect(Buffer.from(bytes.subarray(from, from + SNIFF_BYTES)));
    const name = alias[(r.encoding ?? '').toLowerCase()] ?? r.encoding ?? 'windows-1252';
    return { charset: name, confidence: r.confidence, text: declared(bytes, name) };
  };
}

interface Tally {
  right: number;
  total: number;
  /** Wrong answers given with a confidence at or above the warning threshold (silently wrong). */
  wrongSure: number;
  ms: number;
}

function measure(samples: readonly Sample[], detect: Detector): Map<string, Tally> {
  const by = new Map<string, Tally>();
  for (const s of samples) {
    let t = by.get(s.encoding);
    if (!t) by.set(s.encoding, (t = { right: 0, total: 0, wrongSure: 0, ms: 0 }));
    const t0 = performance.now();
    const d = detect(s.bytes);
    t.ms += performance.now() - t0;
    t.total++;
    if (d.text === s.truth) t.right++;
    else if (d.confidence >= SNIFF_LOW_CONFIDENCE) t.wrongSure++;
  }
  return by;
}

function sum(by: Map<string, Tally>): Tally {
  const all: Tally = { right: 0, total: 0, wrongSure: 0, ms: 0 };
  for (const t of by.values()) {
    all.right += t.right;
    all.total += t.total;
    all.wrongSure += t.wrongSure;
    all.ms += t.ms;
  }
  return all;
}

await runEval('charset', async () => {
  const sets = { corpus: corpusSamples(), fixtures: fixtureSamples() };
  const detectors: Array<[string, Detector]> = [['gabarit (chardet)', gabarit]];
  const js = await jschardetDetector();
  if (js) detectors.push(['jschardet', js]);
  else process.stdout.write('jschardet not installed (npm install --no-save jschardet to compare): gabarit only\n');
  const results: Record<string, Record<string, Record<string, Tally>>> = {};
  const rows: string[][] = [];
  for (const [name, detect] of detectors) {
    results[name] = {};
    for (const [set, samples] of Object.entries(sets)) {
      const by = measure(samples, detect);
      results[name]![set] = Object.fromEntries(by);
      for (const [enc, t] of [...by].sort()) rows.push([name, set, enc, `${t.right}/${t.total}`, String(t.wrongSure), (t.ms / t.total).toFixed(1)]);
      const all = sum(by);
      rows.push([name, set, 'all', `${all.right}/${all.total}`, String(all.wrongSure), (all.ms / all.total).toFixed(1)]);
    }
  }
  process.stdout.write(formatTable(['detector', 'samples', 'encoding', 'right', 'wrong, sure', 'ms/page'], rows) + '\n');
  const g = results['gabarit (chardet)']!;
  const acc = (set: string): number => {
    const a = sum(new Map(Object.entries(g[set]!)));
    return a.right / a.total;
  };
  const path = writeResults('charset', { 'corpus accuracy': acc('corpus'), 'fixture accuracy': acc('fixtures') }, { threshold: SNIFF_LOW_CONFIDENCE, results });
  process.stdout.write(`results: ${path}\n`);
});
