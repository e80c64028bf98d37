// first: no object schema may be built before zod is jitless (see zod-jitless.ts)
import './zod-jitless.ts';
// Chinese for every validation failure a schema does not word itself, installed before any schema
// parses — the console's and the buyer's H5 pages alike, whichever chunk loads first (issue 24 item 5)
import '@kaipiao/shared/validation/zod-zh';
