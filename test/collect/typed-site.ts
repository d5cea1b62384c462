/**
 * A small API reference written for the collect tests, in the manner of generators that type their pages in
 * the file name: modules `m0/`…`m3/`, each with an index listing its items, and item pages `struct.<Name>.html`,
 * `fn.<name>.html`, `macro.<name>.html`, `trait.<Name>.html`. Every page has the same template (a sidebar of
 * modules and of the page's own sections, a top bar, a footer). Function and macro pages share it and differ
 * only in the layout of their content; each struct page lists its own methods under headings named after
 * them, and has or lacks the optional sections of its kind (trait implementations, fields, examples).
 */

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['value', 'buffer', 'reader', 'handle', 'stream', 'entry', 'error', 'option', 'thread', 'lock', 'cursor', 'socket', 'path', 'range', 'slice', 'queue'];

export interface TypedSite {
  /** Index pages of the modules (`m0/index.html`, …). */
  module: string[];
  files: Map<string, string>;
  struct: string[];
  fn: string[];
  macro: string[];
  trait: string[];
}

/**
 * `partial`: a partial copy of a larger reference: the crate root's description names structs of modules
 * left out of the copy (links that lead nowhere), before its table of modules, and a struct page names
 * structs and traits of its own module only, so that the modules' index pages alone lead to every struct.
 * `modulesMenu: false`: no sidebar lists the modules (the crate root's table alone does); `firstAcross`: a
 * struct page names, of the next module's structs, its first only. `seeAlso`: each trait page of the first
 * modules names the traits of the next module (not the last module's: only its index page lists them).
 * `modules`: how many modules (4). `oneTable`: a module's index lists its items of every kind in one link
 * collection (links without a class), structs first, and its sidebar lists none of them. `missing`: the crate
 * root's table names that many more modules after its own, left out of the copy. `allItems`: every page's
 * sidebar links a page listing all items, one list per kind. `implementors`: the first four structs of every
 * module implement the first trait of every other module, whose pages list them (in their sidebar and
 * content), and those of the first module its second trait; the last two structs of a module implement
 * none; a module's index page's sidebar lists its structs and traits and links the crate root.
 */
export function typedSite(options: { partial?: boolean; modulesMenu?: boolean; firstAcross?: boolean; seeAlso?: boolean; modules?: number; oneTable?: boolean; missing?: number; allItems?: boolean; implementors?: boolean } = {}): TypedSite {
  const MODULES = Array.from({ length: options.modules ?? 4 }, (_, i) => `m${i}`);
  const rnd = random(7);
  const word = (): string => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const prose = (n: number): string => Array.from({ length: n }, () => `The ${word()} holds a ${word()} and returns the ${word()} of its ${word()} when asked.`).join(' ');
  const files = new Map<string, string>();
  const items = MODULES.map((m, i) => ({
    m,
    structs: Array.from({ length: 6 }, (_, k) => `${['Cell', 'Pipe', 'Node', 'Grid', 'Tape', 'Ring'][k]}${i}`),
    fns: Array.from({ length: 3 }, (_, k) => `${['open', 'read', 'close'][k]}_${i}`),
    macros: Array.from({ length: 3 }, (_, k) => `${['check', 'note', 'dump'][k]}_${i}`),
    traits: [`Walk${i}`, `Show${i}`],
  }));
  const page = (title: string, depth: number, sections: string, content: string): string => {
    const up = depth === 0 ? '' : '../';
    return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body class="rustdoc">
<nav class="sidebar"><a class="logo" href="${up}index.html">api</a>${options.allItems ? `<ul class="block all"><li><a href="${up}all.html">All items</a></li></ul>` : ''}<h2 class="location">${title}</h2><div class="sidebar-elems">${sections}${options.modulesMenu === false ? '' : `<h3><a href="${up}index.html#modules">Modules</a></h3><ul class="block mod">${MODULES.map((m) => `<li><a href="${up}${m}/index.html">${m}</a></li>`).join('')}</ul>`}</div></nav>
<main><div class="width-limiter"><nav class="sub"><form class="search-form"><input class="search-input" name="search"></form><a class="settings" href="${up}settings.html">Settings</a></nav><section id="main-content" class="content">${content}</section></div></main>
<footer class="footer"><p>Generated documentation. <a href="${up}help.html">Help</a></p></footer></body></html>`;
  };
  // With `implementors`, the structs that implement traits (the first four of every module).
  const implementing = (s: string): boolean => ['Cell', 'Pipe', 'Node', 'Grid'].some((x) => s.startsWith(x));
  const linkTo = (from: string, i: number, kind: string, name: string): string => `<a class="${kind}" href="${from === MODULES[i] ? '' : `../${MODULES[i]}/`}${kind}.${name}.html">${name}</a>`;
  const struct: string[] = [];
  const fn: string[] = [];
  const macro: string[] = [];
  const trait: string[] = [];
  items.forEach(({ m, structs, fns, macros, traits }, i) => {
    const other = options.partial ? i : (i + 1) % MODULES.length;
    for (const s of structs) {
      const methods = Array.from({ length: 2 + Math.floor(rnd() * 5) }, (_, k) => `${word()}_${k}`);
      const drawn = traits.filter(() => rnd() < 0.6).map((t) => ({ t, i })).concat(rnd() < 0.5 ? [{ t: items[other]!.traits[0]!, i: other }] : []);
      const impls = options.implementors ? (implementing(s) ? [...(i === 0 ? [{ t: traits[1]!, i }] : []), ...items.flatMap((x, j) => (j === i ? [] : [{ t: x.traits[0]!, i: j }]))] : []) : drawn;
      const ret = (): string => (rnd() < 0.5 ? linkTo(m, other, 'struct', items[other]!.structs[options.firstAcross ? 0 : Math.floor(rnd() * 6)]!) : `<span class="primitive">usize</span>`);
      let sections = `<h3><a href="#implementations">Methods</a></h3><ul class="block method">${methods.map((x) => `<li><a href="#method.${x}">${x}</a></li>`).join('')}</ul>`;
      if (impls.length > 0) sections += `<h3><a href="#trait-implementations">Trait Implementations</a></h3><ul class="block trait-implementation">${impls.map(({ t }) => `<li><a href="#impl-${t}-for-${s}">${t}</a></li>`).join('')}</ul>`;
      let content = `<div class="main-heading"><h1 class="fqn">Struct <a href="index.html">${m}</a>::<a class="struct" href="#">${s}</a></h1></div><div class="docblock item-decl"><pre class="rust struct"><code>pub struct ${s} { /* private fields */ }</code></pre></div><details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>${prose(2)}</p>`;
      if (rnd() < 0.5) content += `<h2 id="examples-${s}">Examples</h2><pre class="rust rust-example-rendered"><code>let x = ${s}::new();</code></pre>`;
      content += `</div></details>`;
      if (rnd() < 0.4) content += `<h2 id="fields" class="fields small-section-header">Fields</h2>${methods.slice(0, 2).map((f) => `<span id="structfield.${f}" class="structfield small-section-header"><a href="#structfield.${f}" class="anchor field"></a><code>${f}: ${ret()}</code></span><div class="docblock"><p>${prose(1)}</p></div>`).join('')}`;
      content += `<h2 id="implementations" class="small-section-header">Implementations</h2><div id="implementations-list"><details class="rustdoc-toggle implementors-toggle" open><summary><section id="impl-${s}" class="impl has-srclink"><h3 class="code-header in-band">impl <a class="struct" href="#">${s}</a></h3></section></summary><div class="impl-items">`;
      for (const x of methods) content += `<details class="rustdoc-toggle method-toggle" open><summary><section id="method.${x}" class="method has-srclink"><h4 class="code-header">pub fn <a href="#method.${x}" class="fnname">${x}</a>(&amp;self) -&gt; ${ret()}</h4></section></summary><div class="docblock"><p>${prose(1)}</p></div></details>`;
      content += `</div></details></div>`;
      if (impls.length > 0) content += `<h2 id="trait-implementations" class="small-section-header">Trait Implementations</h2><div id="trait-implementations-list">${impls.map(({ t, i: ti }) => `<details class="rustdoc-toggle implementors-toggle" open><summary><section id="impl-${t}-for-${s}" class="impl has-srclink"><h3 class="code-header in-band">impl ${linkTo(m, ti, 'trait', t)} for <a class="struct" href="#">${s}</a></h3></section></summary></details>`).join('')}</div>`;
      const key = `${m}/struct.${s}.html`;
      files.set(key, page(`Struct ${s}`, 1, sections, content));
      struct.push(key);
    }
    // Functions and macros: one template, one sidebar, content told apart by its layout only.
    const sibling = `<h3><a href="index.html">In ${m}</a></h3><ul class="block fn">${fns.map((f) => `<li><a href="fn.${f}.html">${f}</a></li>`).join('')}</ul><ul class="block macro">${macros.map((f) => `<li><a href="macro.${f}.html">${f}</a></li>`).join('')}</ul>`;
    for (const f of fns) {
      const content = `<div class="main-heading"><h1 class="fqn">Function <a href="index.html">${m}</a>::<a class="fn" href="#">${f}</a></h1></div><div class="docblock item-decl"><pre class="rust fn"><code>pub fn ${f}(x: ${linkTo(m, i, 'struct', structs[0]!)}) -&gt; usize</code></pre></div><details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>${prose(2)}</p><h2 id="panics">Panics</h2><p>${prose(1)}</p></div></details>`;
      const key = `${m}/fn.${f}.html`;
      files.set(key, page(`Function ${f}`, 1, sibling, content));
      fn.push(key);
    }
    for (const f of macros) {
      const content = `<div class="main-heading"><h1 class="fqn">Macro <a href="index.html">${m}</a>::<a class="macro" href="#">${f}</a></h1></div><div class="docblock item-decl"><div class="example-wrap"><pre class="rust macro"><code>macro_rules! ${f} { ($x:expr) =&gt; { ... }; }</code></pre></div></div><details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>${prose(2)} See ${linkTo(m, i, 'struct', structs[1]!)}.</p><div class="example-wrap"><pre class="rust rust-example-rendered"><code>${f}!(1);</code></pre></div></div></details>`;
      const key = `${m}/macro.${f}.html`;
      files.set(key, page(`Macro ${f}`, 1, sibling, content));
      macro.push(key);
    }
    const next = i + 1 < MODULES.length - 1 ? items[i + 1]! : undefined;
    const seeAlso = options.seeAlso && next !== undefined ? `<h2 id="see-also" class="small-section-header">See also</h2><ul class="see-also">${next.traits.map((t) => `<li>${linkTo(m, i + 1, 'trait', t)}</li>`).join('')}</ul>` : '';
    for (const t of traits) {
      // The first trait's implementors, listed in the sidebar as a module's structs are, and in the content.
      const by = options.implementors && t === traits[0] ? items.flatMap((x, j) => (j === i ? [] : x.structs.filter(implementing).map((n) => linkTo(m, j, 'struct', n)))) : [];
      const implementors = by.length === 0 ? '' : `<h2 id="implementors" class="section-header">Implementors</h2><div class="item-table">${by.map((a) => `<div class="item-row"><div class="item-left module-item">${a}</div><div class="item-right docblock-short">${prose(1)}</div></div>`).join('')}</div>`;
      const implementedBy = by.length === 0 ? '' : `<h3><a href="#implementors">Implementors</a></h3><ul class="block struct">${by.map((a) => `<li>${a}</li>`).join('')}</ul>`;
      files.set(`${m}/trait.${t}.html`, page(`Trait ${t}`, 1, sibling + implementedBy, `<div class="main-heading"><h1 class="fqn">Trait <a class="trait" href="#">${t}</a></h1></div><div class="docblock item-decl"><pre class="rust trait"><code>pub trait ${t} { fn walk(&amp;self); }</code></pre></div><div class="docblock"><p>${prose(2)}</p></div>${seeAlso}${implementors}`));
      trait.push(`${m}/trait.${t}.html`);
    }
    const table = (id: string, title: string, kind: string, names: string[]): string => `<h2 id="${id}" class="section-header">${title}</h2><div class="item-table">${names.map((x) => `<div class="item-row"><div class="item-left module-item"><a${options.oneTable ? '' : ` class="${kind}"`} href="${kind}.${x}.html">${x}</a></div><div class="item-right docblock-short">${prose(1)}</div></div>`).join('')}</div>`;
    const tables = options.oneTable
      ? `${table('structs', 'Structs', 'struct', structs)}${table('traits', 'Traits', 'trait', traits)}${table('functions', 'Functions', 'fn', fns)}${table('macros', 'Macros', 'macro', macros)}`
      : `${table('macros', 'Macros', 'macro', macros)}${table('structs', 'Structs', 'struct', structs)}${table('traits', 'Traits', 'trait', traits)}${table('functions', 'Functions', 'fn', fns)}`;
    const itemsMenu = options.implementors ? `<ul class="block crate"><li><a href="../index.html">In api</a></li></ul><ul class="block struct">${structs.map((x) => `<li><a href="struct.${x}.html">${x}</a></li>`).join('')}</ul><ul class="block trait">${traits.map((x) => `<li><a href="trait.${x}.html">${x}</a></li>`).join('')}</ul>` : '';
    files.set(`${m}/index.html`, page(`Module ${m}`, 1, options.oneTable ? '' : sibling + itemsMenu, `<div class="main-heading"><h1 class="fqn">Module <a class="mod" href="#">${m}</a></h1></div><details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>${prose(3)}</p></div></details>${tables}`));
  });
  // A partial copy's root has the sidebar of a module (its own items listed), as a crate root has.
  const rootSections = options.partial ? `<h3><a href="index.html">In api</a></h3><ul class="block fn">${items[0]!.fns.map((f) => `<li><a href="m0/fn.${f}.html">${f}</a></li>`).join('')}</ul><ul class="block macro">${items[0]!.macros.map((f) => `<li><a href="m0/macro.${f}.html">${f}</a></li>`).join('')}</ul>` : '';
  files.set('index.html', page('Crate api', 0, rootSections, `<div class="main-heading"><h1 class="fqn">Crate <a class="mod" href="#">api</a></h1></div><details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock"><p>${prose(4)}</p>${options.partial ? `<p>The crate re-exports ${['Vec', 'Map', 'Rc', 'Arc', 'Box'].map((x) => `<a href="gone/struct.${x}.html">${x}</a>`).join(', ')} from modules of their own.</p>` : ''}</div></details><h2 id="modules" class="section-header">Modules</h2><div class="item-table">${[...MODULES, ...Array.from({ length: options.missing ?? 0 }, (_, k) => `gone${k}`)].map((m) => `<div class="item-row"><div class="item-left module-item"><a class="mod" href="${m}/index.html">${m}</a></div><div class="item-right docblock-short">${prose(1)}</div></div>`).join('')}</div>`));
  if (options.allItems) {
    const list = (kind: string, cls: string, names: (x: (typeof items)[number]) => string[]): string => `<h3 id="${cls}">${cls}</h3><ul class="${cls} docblock">${items.flatMap((x) => names(x).map((n) => `<li><a href="${x.m}/${kind}.${n}.html">${x.m}::${n}</a></li>`)).join('')}</ul>`;
    files.set('all.html', page('All items', 0, '', `<div class="main-heading"><h1 class="fqn">List of all items</h1></div>${list('struct', 'structs', (x) => x.structs)}${list('trait', 'traits', (x) => x.traits)}${list('fn', 'functions', (x) => x.fns)}${list('macro', 'macros', (x) => x.macros)}`));
  }
  return { files, module: MODULES.map((m) => `${m}/index.html`), struct, fn, macro, trait };
}
