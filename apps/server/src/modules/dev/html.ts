const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and attribute values. */
export const esc = (value: string | number) => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

const STYLE = `body{font:14px/1.6 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;margin:0;background:#f5f7fa;color:#1f2329}
main{max-width:560px;margin:40px auto;background:#fff;border-radius:8px;padding:24px 32px;box-shadow:0 2px 8px rgba(0,0,0,.06)}
h1{font-size:20px;margin:0 0 8px}.hint{color:#646a73}.sandbox{display:inline-block;background:#fff7e6;color:#d46b08;border-radius:4px;padding:0 6px;font-size:12px}
ul{list-style:none;padding:0}li{display:flex;align-items:center;justify-content:space-between;border-bottom:1px solid #f0f0f0;padding:10px 0}
a.btn,button{background:#00a870;color:#fff;border:0;border-radius:4px;padding:6px 14px;font-size:14px;cursor:pointer;text-decoration:none;margin-left:8px}
a.btn.plain,button.plain{background:#fff;color:#00a870;border:1px solid #00a870}#result{min-height:22px;font-weight:600}`;

/**
 * A small server-rendered page of the sandbox (Chinese, like the console). `scriptSrc` is a script
 * file of ours: the CSP (plugins/security.ts) runs no inline script.
 */
export function page(title: string, body: string, scriptSrc = ''): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>${STYLE}</style></head><body><main>
<h1>${esc(title)} <span class="sandbox">沙箱</span></h1>
${body}
</main>${scriptSrc ? `<script src="${esc(scriptSrc)}"></script>` : ''}</body></html>`;
}
