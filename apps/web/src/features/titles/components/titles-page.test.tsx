import type { TitleItem } from '@kaipiao/shared';
import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { onWideScreen } from '../../../test/wide-screen.ts';
import { TitlesPage } from './titles-page.tsx';

const TITLE: TitleItem = {
  id: 3,
  title_type: 2,
  name: '杭州数澜网络科技有限公司',
  tax_code: '91330110MA2GQ7K3PX',
  address: '浙江省杭州市余杭区文一西路998号',
  phone: '0571-86001234',
  bank_name: '中国银行杭州余杭支行',
  bank_account: '358960001234567',
  email: 'finance@shulan.example.com',
  mobile: '',
  use_count: 12,
  last_used_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

describe('TitlesPage', { timeout: 60_000 }, () => {
  // every column, as at 1600 px and wider
  onWideScreen();
  beforeEach(() => {
    server.use(apiOk('GET', '/v3/client-title/list', { list: [TITLE], total: 1 }));
  });

  it('lists titles with type, tax code, address and phone, and the toolbar', async () => {
    render(
      <AntdProvider>
        <TitlesPage />
      </AntdProvider>,
    );
    expect(await screen.findByText('杭州数澜网络科技有限公司')).toBeTruthy();
    expect(screen.getByText('91330110MA2GQ7K3PX')).toBeTruthy();
    expect(screen.getByText('浙江省杭州市余杭区文一西路998号 0571-86001234')).toBeTruthy();
    for (const name of ['新增抬头', '导入', '导出', '下载模板']) {
      expect(screen.getByRole('button', { name: new RegExp(name) })).toBeTruthy();
    }
    await waitFor(() => expect(apiCalls()[0]?.path).toBe('/v3/client-title/list'));
  });
});
