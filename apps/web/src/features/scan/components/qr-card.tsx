import { CopyOutlined, DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import type { ScanCode } from '@kaipiao/shared/schemas/scan';
import { beijingDateTime } from '@kaipiao/shared/time/beijing';
import { Button, Space, Tag, Typography } from 'antd';
import { toastSuccess } from '../../../lib/antd/feedback.ts';
import { buyerUrl, codeImageUrl } from '../api/scan.ts';

export const codeTitle = (c: ScanCode) =>
  c.kind === 'store'
    ? `${c.store_name}（${TERMS.store}码）`
    : c.kind === 'counter'
      ? c.name
      : `订单 ${c.order_no ?? ''}`;

/** Opens a print window with the card: seller's store, the code, how to use it. */
export function printCode(c: ScanCode, sellerName: string) {
  const w = window.open('', '_blank', 'width=480,height=640');
  if (!w) return;
  const img = new URL(codeImageUrl(c.id), window.location.origin).toString();
  const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const amount = c.amount ? `<p class="amt">开票${TERMS.amount}：¥${esc(c.amount)}</p>` : '';
  w.document.write(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>扫码开票</title>
<style>body{font-family:sans-serif;text-align:center;margin:24px}h1{font-size:22px;margin:8px 0}
h2{font-size:16px;font-weight:normal;color:#555;margin:4px 0 12px}img{width:280px;height:280px}
p{margin:6px 0;color:#333}.amt{font-size:18px;font-weight:bold}.tip{color:#888;font-size:13px}</style></head>
<body><h1>扫码开发票</h1><h2>${esc(sellerName)} · ${esc(codeTitle(c))}</h2>
<img src="${img}" alt="开票二维码">${amount}
<p>微信、支付宝或手机相机扫码，填写抬头即可开票</p>
${c.expires_at ? `<p class="tip">有效期至 ${esc(beijingDateTime(c.expires_at))}</p>` : ''}
</body></html>`);
  w.document.close();
  // printed once the code has loaded; the listener lives here, since the window inherits the
  // console's CSP, which runs no inline handler
  const image = w.document.querySelector('img');
  const print = () => setTimeout(() => w.print(), 50);
  if (!image || image.complete) print();
  else image.addEventListener('load', print, { once: true });
}

/** A code with its QR image and print / download / copy-link actions. */
export function QrCard({
  code,
  sellerName,
  extra,
}: {
  code: ScanCode;
  sellerName: string;
  extra?: React.ReactNode;
}) {
  const disabled = code.status === 'disabled';
  return (
    <Space direction="vertical" align="center" style={{ width: '100%' }} data-testid={`qr-${code.id}`}>
      <img
        src={codeImageUrl(code.id)}
        alt={`${codeTitle(code)}二维码`}
        width={168}
        height={168}
        style={{ opacity: disabled ? 0.3 : 1, border: '1px solid #f0f0f0', borderRadius: 4 }}
      />
      <Space size={4}>
        <Typography.Text strong>{codeTitle(code)}</Typography.Text>
        {disabled && <Tag>已停用</Tag>}
      </Space>
      <Space size={0} wrap style={{ justifyContent: 'center' }}>
        <Button
          type="link"
          size="small"
          icon={<PrinterOutlined />}
          disabled={disabled}
          onClick={() => printCode(code, sellerName)}
        >
          打印
        </Button>
        <Button
          type="link"
          size="small"
          icon={<DownloadOutlined />}
          disabled={disabled}
          href={codeImageUrl(code.id, true)}
          download
        >
          下载
        </Button>
        <Button
          type="link"
          size="small"
          icon={<CopyOutlined />}
          disabled={disabled}
          onClick={() => {
            void navigator.clipboard
              ?.writeText(buyerUrl(code.token))
              .then(() => toastSuccess('开票链接已复制'));
          }}
        >
          复制链接
        </Button>
        {extra}
      </Space>
    </Space>
  );
}
