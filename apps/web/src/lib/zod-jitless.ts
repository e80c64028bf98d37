import { z } from 'zod';

// zod compiles object schemas with `new Function` unless told not to, and decides so when each
// object schema is built; the console runs under a CSP without 'unsafe-eval'
// (apps/server/src/plugins/security.ts), where even zod's caught probe is reported as a violation.
// A module of its own, imported first by zod-config.ts: its other import (zod-zh, through
// schemas/common.ts) builds object schemas as it loads, which probed eval before the setting ran
// (the console-error fixture saw "script-src eval" on every page).
z.config({ jitless: true });
