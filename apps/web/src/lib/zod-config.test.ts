import { publicCodeQuerySchema } from '@kaipiao/shared/schemas/scan';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import './zod-config.ts';

/** Issue 24 item 5: no English reaches a person — the browser's zod speaks Chinese too. */
describe('zod in the browser', () => {
  it('words a truncated scan link and a too-long filter in Chinese', () => {
    const short = publicCodeQuerySchema.safeParse({ token: 'abc' });
    expect(short.success).toBe(false);
    const message = short.error?.issues[0]?.message ?? '';
    expect(message).toMatch(/[\u4e00-\u9fff]/);
    expect(message).not.toMatch(/Too small|expected|Invalid/);
    const long = z.object({ buyer_name: z.string().max(3) }).safeParse({ buyer_name: '四个字符' });
    expect(long.error?.issues[0]?.message).toMatch(/[\u4e00-\u9fff]/);
    expect(long.error?.issues[0]?.message).not.toMatch(/Too big/);
  });
});
