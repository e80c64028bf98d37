import { z } from 'zod';
// Chinese for every validation failure a schema does not word itself, installed before any schema
// parses — the console's and the buyer's H5 pages alike, whichever chunk loads first (issue 24 item 5)
import '@kaipiao/shared/validation/zod-zh';

// zod compiles object schemas with `new Function` unless told not to; the console runs under a CSP
// without 'unsafe-eval' (apps/server/src/plugins/security.ts), where even zod's caught probe is
// reported as a violation. Imported first by main.tsx, before any schema parses.
z.config({ jitless: true });
