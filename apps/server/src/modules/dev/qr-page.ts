import { text } from '@kaipiao/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { esc, page } from './html.ts';
import { listAccounts } from './repo.ts';

// Runs in the browser (GET /sandbox/qr-login.js, a file: the CSP runs no inline script): posts
// the chosen step to the sandbox control and says what happened.
const SCRIPT = `
const holder = document.querySelector('[data-qr-id]');
const result = document.getElementById('result');
for (const button of document.querySelectorAll('button[data-step]')) {
  button.addEventListener('click', async () => {
    const account = document.querySelector('input[name=account]:checked')?.value;
    const step = button.dataset.step;
    const res = await fetch('/v3/dev/qr-confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ qr_id: holder.dataset.qrId, account, step }),
    }).then((r) => r.json());
    result.textContent = res.code !== 0 ? res.message
      : step === 'scan' ? '已扫码，请点击「确认登录」' : '已确认登录，请回到电脑上的开票台';
  });
}`;

/** The page the login QR encodes: stands in for the phone app that scans and confirms. */
export const qrPage: FastifyPluginAsyncZod = async (app) => {
  app.get('/sandbox/qr-login.js', { config: { auth: 'public' } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(SCRIPT),
  );

  app.get(
    '/sandbox/qr-login',
    {
      config: { auth: 'public' },
      schema: { querystring: z.object({ qr_id: text().max(64).optional() }) },
    },
    async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const qrId = req.query.qr_id;
      if (!qrId) return page('扫码登录', '<p>缺少 qr_id，请用手机扫描登录页上的二维码。</p>');
      const accounts = await listAccounts(app.db);
      const items = accounts
        .map(
          (
            a,
            i,
          ) => `<li><label><input type="radio" name="account" value="${esc(a.account)}"${i === 0 ? ' checked' : ''}>
  ${esc(a.nickname)}（${esc(a.account)}）</label></li>`,
        )
        .join('\n');
      const body = `<p class="hint">这个页面模拟手机 App 扫描开票台的登录二维码。选择登录账号，先点「扫码」，再点「确认登录」，电脑上的登录页会自动进入。</p>
<div data-qr-id="${esc(qrId)}" hidden></div>
<ul>${items}</ul>
<p><button type="button" class="plain" data-step="scan">扫码</button><button type="button" data-step="confirm">确认登录</button></p>
<p id="result" role="status"></p>`;
      return page('扫码登录', body, '/sandbox/qr-login.js');
    },
  );
};
