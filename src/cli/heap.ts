/**
 * The garbage collector's settings of the command line (imported first by main.ts, so that every worker
 * thread started later gets them; the library sets none). V8's defaults suit interactive programs, whose
 * live data is small and whose pauses must be short; a run over thousands of pages is a batch job:
 *  - each worker's new space may grow to 32 MB a semi-space (16 by default): a page's tree, strings and
 *    arrays die within the page, and fewer, larger scavenges copy fewer of the batch's objects that live
 *    across them;
 *  - the old generation grows by up to four times its live size before the next full collection: the
 *    main thread holds pages in flight and records while workers run, and with the default growth it ran
 *    a full collection every half second for a few megabytes each.
 * Measured in docs/spark.md ("The parse's start tags, and the collector's settings"): both together take
 * a tenth off the CPU of `gabarit shards analyse` on the synthetic crawl, for a fifth more resident memory.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--max-semi-space-size=32');
setFlagsFromString('--heap-growing-percent=300');
