/**
 * robots.txt as the fetcher obeys it (RFC 9309): read once per origin and matched for the fetcher's user
 * agent. A 4xx means no rules (§2.3.1.3); a 5xx after retries, a redirect loop or too many redirects mean the
 * whole host is disallowed (§2.3.1.4); a network failure is the host's failure, reported for each page. A
 * Crawl-delay raises the host's delay, up to MAX_CRAWL_DELAY_S.
 */
import robotsParserModule from 'robots-parser';
import { PageError } from '../errors.ts';

/** Longest Crawl-delay honoured, seconds (a larger value would stall a run; it is lowered to this). */
export const MAX_CRAWL_DELAY_S = 60;
/** Largest robots.txt read (RFC 9309 §2.5: crawlers must parse at least 500 KiB). */
export const ROBOTS_MAX_BYTES = 512 * 1024;

/**
 * robots-parser is CommonJS (`module.exports = fn`) while its typings declare a default export, so under
 * NodeNext the default import is typed as the module object; at run time it is the function itself.
 */
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;
type Robot = ReturnType<typeof robotsParser>;
/** null: no rules (allow all); `deny`: host unreachable with 5xx (disallow all); PageError: host failed. */
type RobotsVerdict = Robot | null | { deny: string } | PageError;

/** Reads a robots.txt: the response after redirects, or throws the PageError of the request. */
export type RobotsLoader = (robotsUrl: string) => Promise<{ url: string; body: Uint8Array }>;

/** The robots.txt rules of every origin a fetcher visits, each read once. */
export class RobotsRules {
  private readonly verdicts = new Map<string, Promise<RobotsVerdict>>();

  constructor(
    private readonly userAgent: string,
    private readonly load: RobotsLoader,
    /** Called with a host and its Crawl-delay in ms when its robots.txt sets one. */
    private readonly onCrawlDelay: (host: string, ms: number) => void,
  ) {}

  /** Throws a PageError naming `requested` when robots.txt forbids `url` (or its host could not be reached). */
  async check(url: string, requested: string): Promise<void> {
    const origin = new URL(url).origin;
    const v = await this.verdict(origin);
    if (v === null) return;
    if (v instanceof PageError) {
      const reason = v.message.startsWith(`${v.url}: `) ? v.message.slice(v.url.length + 2) : v.message;
      throw new PageError(requested, v.code, `${reason} (while fetching ${v.url})`, { cause: v });
    }
    if ('deny' in v) throw new PageError(requested, 'robots', v.deny);
    if (v.isDisallowed(url, this.userAgent)) {
      const line = v.getMatchingLineNumber(url, this.userAgent);
      throw new PageError(requested, 'robots', `disallowed by ${origin}/robots.txt${line > 0 ? ` (line ${line})` : ''} for user agent "${this.userAgent}"`);
    }
  }

  /** The `Sitemap:` lines of the robots.txt of `url`'s origin (none when it has none or could not be read). */
  async sitemaps(url: string): Promise<string[]> {
    const v = await this.verdict(new URL(url).origin);
    return v !== null && !(v instanceof PageError) && !('deny' in v) ? v.getSitemaps() : [];
  }

  private verdict(origin: string): Promise<RobotsVerdict> {
    let verdict = this.verdicts.get(origin);
    if (!verdict) {
      verdict = this.read(origin);
      this.verdicts.set(origin, verdict);
    }
    return verdict;
  }

  private async read(origin: string): Promise<RobotsVerdict> {
    try {
      const res = await this.load(`${origin}/robots.txt`);
      const robot = robotsParser(res.url, new TextDecoder().decode(res.body));
      const crawlDelay = robot.getCrawlDelay(this.userAgent);
      if (crawlDelay !== undefined && crawlDelay > 0) this.onCrawlDelay(new URL(origin).host, Math.min(crawlDelay, MAX_CRAWL_DELAY_S) * 1000);
      return robot;
    } catch (err) {
      if (!(err instanceof PageError)) throw err;
      // §2.3.1.3: "unavailable" (4xx) means no restrictions; §2.3.1.4: "unreachable" (5xx) means complete
      // disallow; a network failure means the host itself failed.
      if (err.code === 'not-found' || (err.code === 'http-status' && err.status !== undefined && err.status < 500 && err.status !== 429)) return null;
      if (err.code === 'http-status' || err.code === 'redirect-loop' || err.code === 'too-many-redirects') {
        return { deny: `robots.txt unreachable (${err.message.slice(err.url.length + 2)}): the host is treated as fully disallowed (RFC 9309)` };
      }
      return err;
    }
  }
}
