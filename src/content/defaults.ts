/**
 * Thresholds of the main-content extractor (src/content/). Paper 2 (hyperlink-template-extraction,
 * conclusion) names the signals left once the template is gone: text concentration, few links (link
 * density) and position; the values below are the ones measured best on the corpus by
 * `npx tsx eval/content.eval.ts` (see each comment). decay, listWeight, siblingShare and hintBonus were
 * chosen by leave-one-set-out cross-validation over the three samesite sets (eval/content.eval.ts: tuned on two sets,
 * checked on the third; the held-out figures are printed and stored in eval/results/content.json).
 */
export const CONTENT_DEFAULTS = {
  /**
   * A block whose link text is more than this fraction of its text is navigation, not content (link
   * density; Kohlschütter et al. 2010 find the boilerplate / content split of link density near 0.33).
   */
  maxLinkDensity: 0.33,
  /**
   * Text of a link block counts this many times against the main block (a block of links inside a region
   * pulls the region's score down: "few links").
   */
  linkPenalty: 1,
  /**
   * Blocks shorter than this (characters, non-template) get no positive weight of their own: a date, a
   * byline or a button label does not make a region main content (text concentration); they still
   * belong to the main block when they lie inside it.
   */
  minBlockChars: 20,
  /**
   * When the link text of all non-template text is above this fraction, the page is a listing (tag page,
   * index, table of contents): its content is its links, and the whole non-template text is kept.
   */
  listingLinkFraction: 0.5,
  /**
   * …and when no region of running text is worth this much (characters of non-link text, the main block's
   * value): a news story under a large menu the template engine left is mostly links, but it has a story.
   * Measured on the corpus (docs/content.md, "How the option values were measured").
   */
  listingMaxMain: 200,
  /**
   * A page whose non-template text is shorter than this (characters) keeps all of it as content: the
   * template engine has done the work, and a region chosen among a heading and one line is arbitrary (a tag
   * page listing one post). Set to 0 to always choose. Measured on the corpus (docs/content.md).
   */
  minPageChars: 300,
  /**
   * Text inside an element whose class / id says content (hints.ts: article, story, post, entry…) is worth
   * this much more (1 + hintBonus times its value); boilerplate names (mostly comment threads) count
   * against. Measured on the corpus (docs/content.md).
   */
  hintBonus: 0.5,
  /**
   * When the main block is chosen, the value of a nested block counts this much less per block level
   * (concentration: the element that holds the text directly wins over a far ancestor that also holds
   * other text). 1 = plain subtree sum. Cross-validated (0.7–1): 0.7 and 0.8 tie on the mean.
   */
  decay: 0.8,
  /** Factor on the value of the text of list items (li, dd, dt) when the main block is chosen. */
  listWeight: 0.5,
  /** Siblings of the main block worth more than this share of its value are added to it (0 = none). */
  siblingShare: 0.2,
  /**
   * Paragraphs of at least this many characters (under a quarter in links) beside the main block join it:
   * a story's first paragraphs beside the container of the rest (docs/content.md).
   */
  siblingProse: 80,
  /**
   * Position: when the page prints its own headline (an h1–h3 with the `<title>`'s words) and the main block
   * is elsewhere, the best element whose text starts within the head zone under the headline is the main
   * block instead when it is worth at least this share of the other (docs/content.md).
   */
  titledShare: 0.5,
  /**
   * Contiguity: in the maximum-value stretch of text runs, a run of negative value (link list, named
   * boilerplate) counts this many times its value, so that teasers after the story (a link headline, then a
   * line of blurb: each pair of positive value under a plain sum) do not extend it. Cross-validated
   * (docs/content.md).
   */
  gapPenalty: 3,
  /**
   * A comment-thread heading ("Comments", "12 responses", "Leave a reply"; main-block.ts) inside the main
   * block ends the main content when at least this share of the block's positive value comes before it
   * (so that a "Comments" label above the story does not cut it). Measured on the corpus (docs/content.md).
   */
  threadAfter: 0.1,
  /**
   * Site vote (site-vote.ts): the place (path of tag, id and class) of the main block chosen on most pages
   * is the site's; it wins when at least this share of the voting pages agree. Measured on the corpus
   * (docs/content.md).
   */
  voteShare: 0.5,
  /** …and at least this many pages voted (a vote of two pages says little). */
  voteMinPages: 3,
  /** Pages held (and so, at most, kept in memory) before the vote; later pages follow it. */
  voteSample: 64,
  /**
   * A link-dense block with at least this many characters outside its links is a paragraph with inline
   * links (a sentence around a long linked name), not a link list: it is valued and kept like prose.
   * Measured on the corpus (docs/content.md).
   */
  proseChars: 50,
  /**
   * Head zone (position): the story's headline — the block whose words are the page title's, else an h1,
   * else an h2 — found within this many characters of non-template text before the main content is
   * content, and so is what lies between them when it is neither a link list nor named boilerplate, and is
   * a heading (deck) or has at least `headZoneMin` characters (standfirst, video caption). Measured on the
   * corpus (docs/content.md).
   */
  headZone: 800,
  /**
   * Blocks of the head zone shorter than this (characters) stay out: bylines and datelines, which the
   * corpus' gold sets disagree on (docs/content.md).
   */
  headZoneMin: 80,
  /**
   * A block of at most this many characters (non-space) holding © or the word "copyright" is a copyright
   * notice ("© 2008 The Daily Example", "Copyright 2008 by Example Press"), boilerplate; small, so that a
   * sentence about copyright in the story stays (docs/content.md).
   */
  noticeMaxChars: 60,
  /**
   * A boilerplate-named element (hints.ts: widget, sidebar, advert, share…) holding more than this share of
   * the page's text is not boilerplate by its name: a page builder's widget or an ad wrapper around the
   * whole article. See docs/content.md for the figures.
   */
  vetoShare: 0.5,
  /** Comment-thread names (comment, reply, disqus…) veto their subtree whatever share of the text it holds. */
  vetoThreads: true,
  /**
   * Records (records.ts): a run of same-kind siblings (forum posts, answers, sections) is looked for at the
   * main block and up to this many levels above it; their contents together are the main content.
   */
  recordLevels: 6,
  /** …a run needs a second record worth at least this share of the main block's own record; its other records may be smaller (a one-line reply). */
  recordShare: 0.1,
  /**
   * Elements of the main block's own kind elsewhere (question and answers) are records when together they
   * hold at least this share of the value of their lowest common ancestor.
   */
  recordCover: 0.5,
  /**
   * The main block holds the records (records.ts `recordsInside`) when children of one kind hold at least
   * this share of its value: then the thread is kept whole (docs/content.md).
   */
  recordInside: 0.9,
  /**
   * Navigation-only main block (after a site's link graph removed its template): per-page navigation
   * outside the main block is left out only when the main block holds at least this share of the page's
   * value; below, the page is an index whose links are its content. See docs/content.md for the figures.
   */
  navigationHeld: 0.5,
  /**
   * A character of a script written without spaces between words (Han, kana, Hangul) counts this many
   * letters in every length above. Not tuned: a Chinese word has about 1.5 characters and an English word
   * about 5 letters with its space, so a character is worth about 3 letters (docs/content.md).
   */
  cjkWeight: 3,
  /** A link graph exists when the entry page links to at least this many pages of the source. */
  graphMinLinks: 3,
  /**
   * Most of the entry page's links checked for a page the source holds. A mirror of part of a site holds
   * few of the pages its home links to first (about, search, download pages), so more than a handful is
   * checked; each check is one load.
   */
  graphCheckLinks: 64,
} as const;
