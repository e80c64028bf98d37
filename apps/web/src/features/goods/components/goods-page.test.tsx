import type { GoodsItem } from '@kaipiao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AntdProvider } from '../../../lib/antd/provider.tsx';
import { apiOk } from '../../../test/api.ts';
import { apiCalls, server } from '../../../test/msw.ts';
import { onWideScreen } from '../../../test/wide-screen.ts';
import { GoodsPage } from './goods-page.tsx';

const ITEM: GoodsItem = {
  id: 7,
  name: '软件开发服务',
  tax_class_code: '3040201010000000000',
  tax_class_name: '软件开发服务',
  short_name: '信息技术服务',
  full_name: '*信息技术服务*软件开发服务',
  spec: '',
  unit: '项',
  price: null,
  price_includes_tax: true,
  tax_rate: '0.06',
  tax_rate_label: '6%',
  preferential_code: '',
  zero_rate_flag: '',
  is_default: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

describe('GoodsPage', { timeout: 60_000 }, () => {
  // every column, as at 1600 px and wider
  onWideScreen();
  beforeEach(() => {
    server.use(apiOk('GET', '/v3/client-project/get-projects', { list: [ITEM], total: 1 }));
  });

  it('lists the goods with the printed name, rate, default tag and the toolbar', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AntdProvider>
          <GoodsPage />
        </AntdProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('*信息技术服务*软件开发服务')).toBeTruthy();
    expect(screen.getByText('默认')).toBeTruthy();
    expect(screen.getByText('6%')).toBeTruthy();
    expect(screen.getByText('开票时填写')).toBeTruthy();
    // 更新时间 in Beijing time whatever the browser's zone (00:00 UTC is 08:00 in Beijing)
    expect(screen.getByText('2026-01-02 08:00')).toBeTruthy();
    for (const name of ['新增商品', '导入', '导出', '下载模板']) {
      expect(screen.getByRole('button', { name: new RegExp(name) })).toBeTruthy();
    }
    await waitFor(() => {
      const [first] = apiCalls();
      expect(first?.path).toBe('/v3/client-project/get-projects');
      expect(first?.query.page_size).toBe('10');
    });
  });
});
