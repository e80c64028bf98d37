import { CATALOG_CODE, TITLE_MSG, type TitleBody, type TitleItem } from '@kaipiao/shared';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiError, apiHandler, reply } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { TitleFormModal } from './title-form-modal.tsx';

function renderModal() {
  const onSaved = vi.fn();
  render(
    <AntdProvider>
      <TitleFormModal open onOpenChange={() => {}} editing={null} onSaved={onSaved} />
    </AntdProvider>,
  );
  return { onSaved };
}

const createCalls = () => apiCalls('/v3/client-title/create');

/** a title as the server answers a create (titleItemSchema) */
const created = (body: TitleBody): TitleItem => ({
  id: 1,
  title_type: body.title_type,
  name: body.name,
  tax_code: body.tax_code ?? '',
  address: body.address ?? '',
  phone: body.phone ?? '',
  bank_name: body.bank_name ?? '',
  bank_account: body.bank_account ?? '',
  email: body.email ?? '',
  mobile: body.mobile ?? '',
  use_count: 0,
  last_used_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('TitleFormModal', { timeout: 60_000 }, () => {
  beforeEach(() => {
    server.use(apiHandler('POST', '/v3/client-title/create', ({ body }) => reply.ok(created(body))));
  });

  it('asks an enterprise for name and tax code', async () => {
    renderModal();
    await userEvent.click(await screen.findByRole('button', { name: '保存' }));
    expect(await screen.findByText('请输入抬头名称')).toBeTruthy();
    expect(screen.getByText('企业抬头请填写纳税人识别号')).toBeTruthy();
    expect(createCalls()).toHaveLength(0);
  });

  it('checks the USCC checksum and the spec §5 patterns with Chinese messages', async () => {
    renderModal();
    const fill = async (label: string, text: string) => {
      await userEvent.click(await screen.findByLabelText(label));
      await userEvent.paste(text);
    };
    await fill('企业名称', '杭州某某科技有限公司');
    await fill('纳税人识别号', '91110000600037341N');
    await fill('电话', '12');
    await fill('银行账号', '6222-01');
    await fill('邮箱', 'ap@');
    await fill('手机号', '2380000');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('统一社会信用代码校验位不正确，请核对')).toBeTruthy();
    expect(await screen.findByText('请输入正确的电话号码（7-20位数字或“-”）')).toBeTruthy();
    expect(await screen.findByText('银行账号须为1-30位数字')).toBeTruthy();
    expect(await screen.findByText('请输入正确的邮箱地址')).toBeTruthy();
    expect(await screen.findByText('请输入正确的手机号')).toBeTruthy();
    expect(createCalls()).toHaveLength(0);
  });

  it('refuses a one-character personal name as the server does (the shared schema’s rule)', async () => {
    renderModal();
    await userEvent.click(await screen.findByText('个人/非企业单位'));
    await userEvent.click(await screen.findByLabelText('名称'));
    await userEvent.paste('张');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(TITLE_MSG.NAME_PERSONAL_MIN)).toBeTruthy();
    expect(createCalls()).toHaveLength(0);
  });

  it('lets a personal title go without a tax code and sends the trimmed body', async () => {
    const { onSaved } = renderModal();
    await userEvent.click(await screen.findByText('个人/非企业单位'));
    await userEvent.click(await screen.findByLabelText('名称'));
    await userEvent.paste(' 张三 ');
    await userEvent.click(screen.getByLabelText('邮箱'));
    await userEvent.paste('zhangsan@example.com');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = createCalls()[0]?.body;
    expect(body).toMatchObject({ title_type: 1, name: '张三', tax_code: '', email: 'zhangsan@example.com' });
  });

  it('shows a server field error (duplicate name) next to the name', async () => {
    server.use(
      apiError('POST', '/v3/client-title/create', CATALOG_CODE.TITLE_DUPLICATE, {
        data: { errors: [{ field: 'name', message: '已存在同名抬头' }] },
      }),
    );
    renderModal();
    await userEvent.click(await screen.findByLabelText('企业名称'));
    await userEvent.paste('上海云帆信息技术有限公司');
    await userEvent.click(screen.getByLabelText('纳税人识别号'));
    await userEvent.paste('91110000600037341L');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    // under the name field (the answer's message says the same, so the place is what counts)
    const nameItem = screen.getByLabelText('企业名称').closest('.ant-form-item') as HTMLElement;
    expect(await within(nameItem).findByText('已存在同名抬头')).toBeTruthy();
  });
});
