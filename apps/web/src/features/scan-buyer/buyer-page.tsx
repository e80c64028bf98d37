import './antd-mobile-setup.ts';
import { SCAN_CODE } from '@kaipiao/shared/errors/codes';
import { BUYER_TYPE_OPTIONS, TERMS } from '@kaipiao/shared/glossary/terms';
import {
  type PublicCode,
  type PublicRequest,
  publicSubmitBodySchema,
  type TitleSuggestion,
} from '@kaipiao/shared/schemas/scan';
import { TITLE_MSG } from '@kaipiao/shared/schemas/titles';
import { beijingDateTimeMinutes } from '@kaipiao/shared/time/beijing';
import {
  Button,
  Card,
  DotLoading,
  ErrorBlock,
  Form,
  Input,
  List,
  Result,
  Selector,
  TextArea,
  Toast,
} from 'antd-mobile';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../lib/api-error.ts';
import {
  downloadHref,
  forgetRequest,
  getCode,
  getRequest,
  rememberedRequest,
  rememberRequest,
  searchTitles,
  setBuyerToast,
  submit,
} from './api.ts';
import styles from './buyer-page.module.css';

type Values = {
  title_type: (1 | 2)[];
  name: string;
  tax_code: string;
  address: string;
  phone: string;
  bank_name: string;
  bank_account: string;
  email: string;
  mobile: string;
  amount: string;
  remark: string;
};

const yuan = (v: string) => `¥${Number(v).toFixed(2)}`;

function StatusView({
  request,
  requestToken,
  onAgain,
}: {
  request: PublicRequest;
  requestToken: string;
  onAgain?: () => void;
}) {
  const s = request.status;
  const status = s === 'issued' ? 'success' : s === 'rejected' ? 'error' : 'waiting';
  return (
    <div className={styles.body}>
      <Result
        status={status}
        title={request.status_text}
        description={
          s === 'rejected'
            ? `拒绝原因：${request.reject_reason}`
            : s === 'issued'
              ? '发票已开具，可直接下载；如填写了邮箱，发票也已发送到您的邮箱'
              : '商家处理后本页会自动更新，您也可以稍后重新扫码查看'
        }
      />
      {request.invoice && (
        <Card title="发票信息" className={styles.card}>
          <List>
            <List.Item extra={request.invoice.invoice_type_name}>{TERMS.invoiceKindShort}</List.Item>
            <List.Item extra={request.invoice.invoice_no}>{TERMS.invoiceNo}</List.Item>
            <List.Item extra={beijingDateTimeMinutes(request.invoice.issued_at)}>{TERMS.issueDate}</List.Item>
            <List.Item extra={yuan(request.invoice.total_price_with_tax)}>{TERMS.totalWithTax}</List.Item>
          </List>
          <a className={styles.download} href={downloadHref(requestToken)} download>
            <Button block color="primary" size="large">
              下载发票（PDF）
            </Button>
          </a>
        </Card>
      )}
      <Card title="开票信息" className={styles.card}>
        <List>
          <List.Item extra={request.seller_name}>{TERMS.seller}</List.Item>
          <List.Item extra={request.buyer_name}>抬头</List.Item>
          {request.buyer_tax_code && (
            <List.Item extra={request.buyer_tax_code}>{TERMS.taxCodeShort}</List.Item>
          )}
          {request.order_no && <List.Item extra={request.order_no}>订单号</List.Item>}
          {request.email && <List.Item extra={request.email}>邮箱</List.Item>}
          {request.mobile && <List.Item extra={request.mobile}>手机</List.Item>}
          <List.Item extra={beijingDateTimeMinutes(request.created_at)}>提交时间</List.Item>
        </List>
      </Card>
      {onAgain && (
        <Button block fill="outline" onClick={onAgain} className={styles.again}>
          重新填写开票信息
        </Button>
      )}
    </div>
  );
}

/** Company suggestions under the name field (public, rate-limited lookup). */
function useTitleSuggestions(codeToken: string, keyword: string, enabled: boolean) {
  const [list, setList] = useState<TitleSuggestion[]>([]);
  useEffect(() => {
    if (!enabled || keyword.trim().length < 2) {
      setList([]);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      searchTitles(codeToken, keyword.trim())
        .then((r) => live && setList(r))
        .catch(() => live && setList([]));
    }, 300);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [codeToken, keyword, enabled]);
  return [list, setList] as const;
}

function SubmitForm({
  code,
  codeToken,
  onSubmitted,
}: {
  code: PublicCode;
  codeToken: string;
  onSubmitted: (requestToken: string) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [titleType, setTitleType] = useState<1 | 2>(2);
  const [name, setName] = useState('');
  const [picked, setPicked] = useState('');
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [suggestions, setSuggestions] = useTitleSuggestions(
    codeToken,
    name,
    titleType === 2 && name !== picked,
  );

  async function onFinish(v: Values) {
    const body = {
      token: codeToken,
      title_type: titleType,
      name: v.name ?? '',
      tax_code: v.tax_code ?? '',
      address: v.address ?? '',
      phone: v.phone ?? '',
      bank_name: v.bank_name ?? '',
      bank_account: v.bank_account ?? '',
      email: v.email ?? '',
      mobile: v.mobile ?? '',
      amount: v.amount ?? '',
      remark: v.remark ?? '',
    };
    // the server's schema, run here first: the same Chinese messages next to the fields
    const checked = publicSubmitBodySchema.safeParse(body);
    if (!checked.success) {
      const issues = checked.error.issues;
      form.setFields(issues.map((i) => ({ name: String(i.path[0]) as keyof Values, errors: [i.message] })));
      Toast.show({ content: issues[0]?.message ?? '请检查填写的信息' });
      return;
    }
    setBusy(true);
    try {
      const res = await submit(body);
      Toast.show({ icon: 'success', content: '提交成功' });
      onSubmitted(res.request_token);
    } catch (err) {
      if (isApiError(err, SCAN_CODE.ORDER_SUBMITTED)) {
        const token = (err.data as { request_token?: string } | undefined)?.request_token;
        Toast.show({ content: err.message });
        if (token) onSubmitted(token);
      } else {
        Toast.show({ content: err instanceof Error ? err.message : '提交失败，请稍后重试' });
      }
    } finally {
      setBusy(false);
    }
  }

  const company = titleType === 2;
  return (
    <div className={styles.body}>
      <Card className={styles.card}>
        <div className={styles.seller}>{code.seller_name}</div>
        <div className={styles.point}>{code.point_name}</div>
        {code.amount && (
          <div className={styles.amount}>
            开票{TERMS.amount} <strong>{yuan(code.amount)}</strong>
          </div>
        )}
        {code.items && <div className={styles.items}>{code.items.map((it) => it.name).join('、')}</div>}
        {code.order_no && <div className={styles.items}>订单号：{code.order_no}</div>}
      </Card>
      <Form
        form={form}
        layout="horizontal"
        onFinish={(v) => void onFinish(v)}
        onValuesChange={(changed: Partial<Values>) => {
          // a field the buyer changes loses its message (either contact clears the contact message)
          const names = Object.keys(changed) as (keyof Values)[];
          if (names.includes('mobile')) names.push('email');
          form.setFields(names.map((n) => ({ name: n, errors: [] })));
        }}
        mode="card"
        footer={
          <Button block type="submit" color="primary" size="large" loading={busy}>
            提交开票申请
          </Button>
        }
      >
        <Form.Header>发票抬头</Form.Header>
        <Form.Item label={TERMS.buyerType}>
          <Selector
            columns={2}
            value={[titleType]}
            onChange={(v) => {
              if (v[0]) {
                setTitleType(v[0]);
                form.setFields([{ name: 'tax_code', errors: [] }]);
              }
            }}
            options={[...BUYER_TYPE_OPTIONS]}
          />
        </Form.Item>
        <Form.Item name="name" label={company ? '单位名称' : '姓名/名称'} required>
          <Input
            placeholder={company ? '输入单位名称，可选择匹配的企业' : '请输入个人姓名或单位名称'}
            clearable
            maxLength={100}
            onChange={(v) => setName(v)}
          />
        </Form.Item>
        {company && suggestions.length > 0 && (
          <List className={styles.suggest}>
            {suggestions.map((s) => (
              <List.Item
                key={s.tax_code}
                description={s.tax_code}
                onClick={() => {
                  form.setFieldsValue({ name: s.name, tax_code: s.tax_code });
                  form.setFields([
                    { name: 'name', errors: [] },
                    { name: 'tax_code', errors: [] },
                  ]);
                  setPicked(s.name);
                  setName(s.name);
                  setSuggestions([]);
                }}
              >
                {s.name}
              </List.Item>
            ))}
          </List>
        )}
        <Form.Item
          name="tax_code"
          label={TERMS.taxCodeShort}
          required={company}
          help={company ? undefined : '选填'}
        >
          <Input
            placeholder={company ? TITLE_MSG.TAX_CODE_REQUIRED.replace('企业抬头', '') : '个人无需填写'}
            clearable
            maxLength={20}
          />
        </Form.Item>
        {company && (
          <Form.Item onClick={() => setMore((m) => !m)} arrowIcon>
            {more ? '收起地址、电话、开户行（选填）' : '更多：地址、电话、开户行（选填）'}
          </Form.Item>
        )}
        {company && more && (
          <>
            <Form.Item name="address" label="地址">
              <Input placeholder="注册地址" maxLength={100} clearable />
            </Form.Item>
            <Form.Item name="phone" label="电话">
              <Input placeholder="注册电话" maxLength={20} clearable />
            </Form.Item>
            <Form.Item name="bank_name" label="开户行">
              <Input placeholder="开户银行" maxLength={60} clearable />
            </Form.Item>
            <Form.Item name="bank_account" label="银行账号">
              <Input placeholder="银行账号" maxLength={30} clearable />
            </Form.Item>
          </>
        )}
        <Form.Header>接收方式（邮箱、手机至少填一项）</Form.Header>
        <Form.Item name="email" label="电子邮箱">
          <Input placeholder="用于接收电子发票" type="email" clearable maxLength={100} />
        </Form.Item>
        <Form.Item name="mobile" label="手机号">
          <Input placeholder="用于接收开票通知" type="tel" clearable maxLength={11} />
        </Form.Item>
        {code.kind !== 'order' && (
          <>
            <Form.Header>消费信息</Form.Header>
            <Form.Item name="amount" label={`消费${TERMS.amount}`} help="选填，商家审核时核对">
              <Input placeholder="0.00" inputMode="decimal" clearable />
            </Form.Item>
          </>
        )}
        <Form.Item name="remark" label={TERMS.remark}>
          <TextArea placeholder="选填" maxLength={100} rows={2} />
        </Form.Item>
      </Form>
    </div>
  );
}

/** /s/:token — the buyer's scan-to-invoice page (public, phone layout). */
export function BuyerPage() {
  const { token = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const [code, setCode] = useState<PublicCode | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [request, setRequest] = useState<PublicRequest | null>(null);
  const requestToken = params.get('r') ?? (code?.request_token || rememberedRequest(token));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    setBuyerToast((content) => Toast.show({ content }));
    document.title = '扫码开票';
  }, []);

  useEffect(() => {
    getCode(token)
      .then(setCode)
      .catch((err) => setError(err instanceof Error ? err.message : '二维码不存在或已失效'));
  }, [token]);

  const load = useCallback(async (rt: string) => {
    try {
      const r = await getRequest(rt);
      setRequest(r);
      if (r.status === 'pending' || r.status === 'issuing' || r.status === 'failed') {
        timer.current = setTimeout(() => void load(rt), 3000);
      }
    } catch {
      setRequest(null);
    }
  }, []);

  useEffect(() => {
    if (!requestToken) return;
    void load(requestToken);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [requestToken, load]);

  // a plain heading: antd-mobile's NavBar keeps an unnamed role="button" on its left even without
  // a back arrow (axe: aria-command-name)
  const header = (
    <header className={styles.navBar}>
      <h1>扫码开票</h1>
    </header>
  );
  let content: React.ReactNode;
  if (requestToken && request) {
    content = (
      <StatusView
        request={request}
        requestToken={requestToken}
        onAgain={
          request.status === 'rejected' && code && !code.expired
            ? () => {
                forgetRequest(token);
                setRequest(null);
                setParams({}, { replace: true });
                if (code.request_token) setCode({ ...code, request_token: null });
              }
            : undefined
        }
      />
    );
  } else if (error) {
    content = <ErrorBlock status="default" title="无法开票" description={error} />;
  } else if (!code || (requestToken && !request)) {
    content = (
      <div className={styles.loading}>
        <DotLoading color="primary" />
      </div>
    );
  } else if (code.expired) {
    content = (
      <ErrorBlock status="default" title="开票码已过期" description="开票码已过有效期，请联系商家重新获取" />
    );
  } else {
    content = (
      <SubmitForm
        code={code}
        codeToken={token}
        onSubmitted={(rt) => {
          rememberRequest(token, rt);
          setParams({ r: rt }, { replace: true });
        }}
      />
    );
  }
  return (
    <div className={styles.page}>
      {header}
      {content}
    </div>
  );
}
