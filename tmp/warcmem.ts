import { writeWarc } from '../src/site/warc-source.ts';
import { sitePage } from '../test/run/fixtures.ts';
const n = Number(process.argv[2]);
const out = process.argv[3]!;
function* pages() { for (let i = 0; i < n; i++) yield { key: `p/${i}.html`, body: sitePage('alpha', i, 6) + '<!--' + 'x'.repeat(20000) + '-->' }; }
console.log(await writeWarc(pages(), out, { baseUrl: 'https://alpha.example/' }));
