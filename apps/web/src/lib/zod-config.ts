import { z } from 'zod';

// zod compiles object schemas with `new Function` unless told not to; the console runs under a CSP
// without 'unsafe-eval' (apps/server/src/plugins/security.ts), where even zod's caught probe is
// reported as a violation. Imported first by main.tsx, before any schema parses.
z.config({ jitless: true });
