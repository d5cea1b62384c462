import { readFileSync } from 'node:fs';
import { parseHtml } from '../src/html/parse.ts';
import { chooseMainBlock } from '../src/content/main-block.ts';
import { textOf } from '../src/html/text.ts';
const tree = parseHtml(readFileSync(process.argv[2]!, 'utf8'));
for (const opts of [{}, { prune: false }, { hints: false }, { dropLinkBlocks: false }, {heading:false}] as const) {
  const mb = chooseMainBlock(tree, new Uint8Array(tree.size), opts);
  const t = textOf(tree, tree.body(), (i) => mb.content[i] === 1);
  console.log(JSON.stringify(opts), mb.root, tree.tag(mb.root), tree.attr(mb.root,'id'), tree.attr(mb.root,'class'), t.split(/\s+/).filter(Boolean).length);
}
let r = chooseMainBlock(tree, new Uint8Array(tree.size)).root;
const path=[]; for (let a=r;a>=0;a=tree.parent[a]!) path.push(tree.tag(a)+(tree.attr(a,'id')?'#'+tree.attr(a,'id'):'')+(tree.attr(a,'class')?'.'+tree.attr(a,'class')!.split(/\s+/).join('.'):''));
console.log(path.join(' < '));
console.log(textOf(tree, r).slice(0,500));
