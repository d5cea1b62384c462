/**
 * A Crawlee crawler with gabarit (`gabarit/crawlee`): every page's main content and metadata go to the
 * Dataset, links are followed by paper 3's crawl priority (content links first, template links last).
 *
 *   npx tsx examples/crawlee-crawler.ts <start-url> [priority|bfs|class|plain] [max-requests]
 *
 * `bfs` follows every link in the order found (Crawlee's own `enqueueLinks`), `class` only the links that
 * lead to pages of the class of the start page (paper 4), `plain` is the crawler without gabarit (the
 * document's title only). Storage goes where CRAWLEE_STORAGE_DIR says (default ./storage). One request at a
 * time, so that the Dataset's order is the order pages were fetched.
 */
import { CheerioCrawler, Dataset, log } from '@crawlee/cheerio';
import { enqueueByPriority, PagesLike, SiteModels } from '../src/crawlee/index.ts';

const [start, strategy = 'priority', max = '1000'] = process.argv.slice(2);
if (!start) throw new Error('usage: crawlee-crawler.ts <start-url> [priority|bfs|class|plain] [max-requests]');
log.setLevel(log.LEVELS.WARNING);

const models = new SiteModels({ onWarning: (m) => process.stderr.write(`gabarit: ${m}\n`) });
const like = new PagesLike();
let fetched = 0;

const crawler = new CheerioCrawler({
  maxConcurrency: 1,
  maxRequestsPerCrawl: Number(max),
  async requestHandler(context) {
    const n = ++fetched;
    if (strategy === 'plain') {
      await context.enqueueLinks();
      return void (await Dataset.pushData({ n, url: context.request.loadedUrl, title: context.$('title').text() }));
    }
    const page = await models.fromContext(context);
    const { text, title, headline, metadata, learned, method } = page;
    const judged = strategy === 'class' ? await like.judge(context, page.marks.tree) : undefined;
    if (strategy === 'priority') await enqueueByPriority(context, page);
    if (strategy === 'bfs') await context.enqueueLinks();
    await Dataset.pushData({ n, url: page.url, title, headline, text, metadata, learned, method, inClass: judged?.inClass });
  },
});

const started = performance.now();
const cpu = process.cpuUsage();
await crawler.run([start]);
const seconds = (performance.now() - started) / 1000;
const { user, system } = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ strategy, pages: fetched, seconds, pagesPerSecond: fetched / seconds, cpuSeconds: (user + system) / 1e6 })}\n`);
