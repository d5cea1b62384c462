/**
 * Pages whose shape is hard on a tool: every per-page step must stay near-linear on them (docs/robustness.md,
 * "Pathological pages"). Used by the test that each step finishes (test/fuzz/pathological.test.ts), the
 * benchmark of each step's time against parsing (bench/pathological.bench.ts) and the fuzzer.
 * `scale` multiplies the size: 1 is the sizes met in the field (400,000 nested divs, 4.4 MB; 200,000 links
 * in one element; a 9 MB text node), which the benchmark runs; the test runs them at half that (a few
 * seconds each; minutes for a step whose cost grows with the square of the size).
 */

/** A named pathological page. */
export interface Shape {
  name: string;
  /** What makes it hard, in a few words. */
  what: string;
  html: string;
}

const page = (body: string): string => `<!DOCTYPE html><html><head><title>shape</title></head><body>${body}</body></html>`;

/** The shapes at a given scale (see the module comment). */
export function shapes(scale = 1): Shape[] {
  const n = (base: number): number => Math.max(1, Math.round(base * scale));
  const deep = n(400_000);
  const links = n(200_000);
  const sibs = n(100_000);
  const texts = n(100_000);
  const rows = n(1000);
  const inline = n(100_000);
  return [
    { name: 'deep-divs', what: `${deep} nested divs`, html: page('<div>'.repeat(deep) + 'deep text' + '</div>'.repeat(deep) + '<p>after</p>') },
    {
      name: 'links-in-one-element',
      what: `${links} links in one paragraph`,
      html: page('<p>' + Array.from({ length: links }, (_, i) => `<a href="/p${i}.html">link ${i}</a> `).join('') + '</p>'),
    },
    {
      name: 'long-attributes',
      what: `attribute values of ${n(2_000_000)} characters`,
      html: page(`<div class="${'c '.repeat(n(1_000_000))}" data-x="${'x'.repeat(n(2_000_000))}"><a href="/${'p'.repeat(n(1_000_000))}" title="${'t'.repeat(n(500_000))}">a</a></div>`.repeat(2)),
    },
    {
      name: 'many-attributes',
      what: `${n(40_000)} attributes on one element`,
      html: page(`<div ${Array.from({ length: n(40_000) }, (_, i) => `a${n(40_000) - i}="v${i}"`).join(' ')}>x</div>`.repeat(2)),
    },
    { name: 'siblings', what: `${sibs} sibling paragraphs`, html: page('<div>' + '<p>para text here</p>'.repeat(sibs) + '</div>') },
    { name: 'text-nodes', what: `${texts} text nodes in one element`, html: page('<p>' + 'word<!---->'.repeat(texts) + '</p>') },
    { name: 'big-text', what: `one text node of ${n(9_000_000)} characters`, html: page('<p>' + 'lorem ipsum '.repeat(Math.ceil(n(9_000_000) / 12)) + '</p>') },
    {
      name: 'huge-table',
      what: `a table of ${rows} × 200 cells`,
      html: page('<table>' + ('<tr>' + '<td>cell <a href="/x">x</a></td>'.repeat(200) + '</tr>').repeat(rows) + '</table>'),
    },
    { name: 'deep-inline', what: `${inline} nested inline elements with text`, html: page('<b>t'.repeat(inline) + '</b>'.repeat(inline)) },
    { name: 'misnested', what: `${n(50_000)} misnested formatting elements`, html: page('<b><i>x</b>y</i>'.repeat(n(50_000))) },
    { name: 'unclosed-formatting', what: `${n(50_000)} unclosed formatting elements, then paragraphs`, html: page('<b id="b">x'.repeat(n(50_000)) + '<p>p</p>'.repeat(n(50_000))) },
  ];
}
