import { extractContent } from '../src/run/content.ts';
import { writeOutputs } from '../src/run/write.ts';
const t0=performance.now();
const { summary } = await writeOutputs(extractContent(process.argv[2]!), { out: '/tmp/out-c', onNoContent: (f) => console.error('NC', f.message), onFailure: (f)=>console.error('F', f.message) });
console.log(summary.method, summary['reason'], summary.pagesDone, summary.pagesFailed, summary['pagesNoContent'], (performance.now()-t0).toFixed(0));
