/**
 * A small hand-written book shop for the designer's tests of fields given by example: each book page has
 * its title, an author block `div.product-author`, tags and a price. The first book's author block has no
 * label and is the only one of its class; the other books carry `By:` before the author and a second
 * `div.product-author` (`More in <a>series</a>`) after it, with links of the same shape. A pattern learned
 * from the first book alone matches both blocks elsewhere and nothing tells them apart (the example has no
 * label, and no sibling to give a rank); an example on another book settles it. One book has no ISBN.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Book {
  file: string;
  title: string;
  author: string;
  series: string | null;
  tags: string[];
  isbn: string | null;
}

export const BOOKS: readonly Book[] = [
  { file: 'raven-black.html', title: 'Raven Black', author: 'Ann Cleeves', series: null, tags: ['Crime', 'Islands', 'Winter'], isbn: '978-0330440707' },
  { file: 'white-nights.html', title: 'White Nights', author: 'Ann Cleeves', series: 'Shetland', tags: ['Crime', 'Summer', 'Islands'], isbn: '978-0330440691' },
  { file: 'tea-time.html', title: 'Tea Time for the Traditionally Built', author: 'Alexander McCall Smith', series: 'No. 1 Ladies Detective Agency', tags: ['Botswana', 'Gentle', 'Detective', 'Humour'], isbn: '978-0349121024' },
  { file: 'dune.html', title: 'Dune', author: 'Frank Herbert', series: 'Dune Chronicles', tags: ['Desert', 'Politics'], isbn: null },
];

const link = (text: string): string => `<a href="/find?q=${encodeURIComponent(text)}">${text}</a>`;

export function bookPage(b: Book, first: boolean): string {
  return `<!DOCTYPE html><html><head><title>${b.title} | Books</title></head><body>
<header><a href="/">Books</a><ul class="menu"><li>New</li><li>Offers</li><li>Help</li></ul></header>
<main><div class="product"><h1>${b.title}</h1>
<div class="product-author">${first ? '' : 'By: '}${link(b.author)}</div>
${b.series ? `<div class="product-author">More in ${link(b.series)}</div>` : ''}
<ul class="tags">${b.tags.map((t) => `<li>${t}</li>`).join('')}</ul>
${b.isbn ? `<p class="isbn">${b.isbn}</p>` : ''}<p class="price">£8.99</p></div></main>
<footer>Books and more</footer></body></html>`;
}

/** Writes the book pages into `dir`. */
export async function writeBookShop(dir: string): Promise<void> {
  await Promise.all(BOOKS.map((b, k) => writeFile(join(dir, b.file), bookPage(b, k === 0))));
}
