import { readFileSync } from 'node:fs';
import { parseHtml } from '../src/html/parse.ts';
import { chooseMainBlock } from '../src/content/main-block.ts';
import { textOf } from '../src/html/text.ts';
const tree = parseHtml(readFileSync(process.argv[2]!, 'utf8'));
const mb = chooseMainBlock(tree, new Uint8Array(tree.size));
console.log(mb.root, mb.root >= 0 ? tree.tag(mb.root) + ' ' + tree.attr(mb.root, 'class') : '', mb.listing, mb.chars, mb.linkChars);
console.log(textOf(tree, tree.body(), (i) => mb.content[i] === 1).slice(0, 300));
console.log('body words', textOf(tree, tree.body()).split(/\s+/).length);
