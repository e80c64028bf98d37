import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { TitleFormModal } from './title-form-modal.tsx';

const envelope = (data: unknown, code = 0, message = 'ok') =>
  new Response(JSON.stringify({ code, message, data }), { headers: { 'content-type': 'application/json' } });

function renderModal() {
  const onSaved = vi.fn();
  render(
    <AntdProvider>
      <TitleFormModal open onOpenChange={() => {}} editing={null} onSaved={onSaved} />
    </AntdProvider>,
  );
  return { onSaved };
}

const createCalls = () =>
  vi.mocked(fetch).mock.calls.filter(([u]) => String(u).includes('/v3/client-title/create'));

describe('TitleFormModal', { timeout: 60_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope({ id: 1, name: 'x' })),
    );
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

  it('lets a personal title go without a tax code and sends the trimmed body', async () => {
    const { onSaved } = renderModal();
    await userEvent.click(await screen.findByText('个人/事业单位'));
    await userEvent.click(await screen.findByLabelText('名称'));
    await userEvent.paste(' 张三 ');
    await userEvent.click(screen.getByLabelText('邮箱'));
    await userEvent.paste('zhangsan@example.com');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = JSON.parse(String(createCalls()[0]?.[1]?.body));
    expect(body).toMatchObject({ title_type: 1, name: '张三', tax_code: '', email: 'zhangsan@example.com' });
  });

  it('shows a server field error (duplicate name) next to the name', async () => {
    vi.mocked(fetch).mockResolvedValue(
      envelope({ errors: [{ field: 'name', message: '已存在同名抬头' }] }, 14102, '已存在同名抬头'),
    );
    renderModal();
    await userEvent.click(await screen.findByLabelText('企业名称'));
    await userEvent.paste('上海云帆信息技术有限公司');
    await userEvent.click(screen.getByLabelText('纳税人识别号'));
    await userEvent.paste('91110000600037341L');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('已存在同名抬头')).toBeTruthy();
  });
});
