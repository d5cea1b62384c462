import { readFileSync } from 'node:fs';
import { LabelTable } from './src/html/labels.ts';
import { getSite } from './src/eval/corpus.ts';
import { parseBytes, analyseTree } from './src/template/pagelets/page-analysis.ts';
import { textOf } from './src/html/text.ts';
const site = getSite(process.argv[2]!);
for (const key of process.argv.slice(3)) {
  const tree = parseBytes(readFileSync(site.pagesDir + '/' + key), undefined, key, new LabelTable());
  const rec = analyseTree(tree, key, 'http://local.invalid/' + key, {});
  console.log(key, 'fp', rec.fingerprint, 'pagelets', rec.pagelets.length);
  rec.pagelets.forEach((v, i) => console.log(i, tree.tag(v), tree.attr(v, 'class') ?? '', rec.shingles[i]!.toString(16), JSON.stringify(textOf(tree, v).slice(0, 80))));
}
