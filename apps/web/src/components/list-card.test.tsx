import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { downloadFile } from '../lib/file-transfer.ts';
import { BatchDeleteBar, ExcelActions, KeywordSearch, rangeTotal, usePaging } from './list-card.tsx';

// the file transfer itself is file-transfer.test.ts's; here: which file each button asks for
vi.mock('../lib/file-transfer.ts', () => ({ downloadFile: vi.fn(() => Promise.resolve()) }));

describe('usePaging (the list pages’ pagination)', () => {
  it('turns pages, and a new page size goes back to the first page', () => {
    const { result } = renderHook(() => usePaging());
    expect(result.current).toMatchObject({ page: 1, pageSize: 10 });
    const p = result.current.pagination(95);
    expect(p).toMatchObject({ current: 1, pageSize: 10, total: 95, showSizeChanger: true });
    expect(p.pageSizeOptions).toEqual(['10', '20', '30']);
    expect(p.showTotal?.(95, [11, 20])).toBe('第 11-20 条/总共 95 条');
    act(() => result.current.pagination(95).onChange?.(3, 10));
    expect(result.current).toMatchObject({ page: 3, pageSize: 10 });
    act(() => result.current.pagination(95).onChange?.(3, 20));
    expect(result.current).toMatchObject({ page: 1, pageSize: 20 });
    expect(result.current.pagination(95)).toMatchObject({ current: 1, pageSize: 20 });
  });

  it('counts as the tables always have', () => {
    expect(rangeTotal(25, [1, 10])).toBe('第 1-10 条/总共 25 条');
  });
});

describe('ExcelActions (a catalogue’s Excel buttons)', () => {
  it('下载模板 and 导出 ask for the catalogue’s files, 导出 with the search; 导入 opens the dialog', () => {
    const onImport = vi.fn();
    render(
      <ExcelActions
        name="购方抬头"
        paths={{ template: '/v3/t/template', export: '/v3/t/export' }}
        query={{ keyword: '西溪' }}
        onImport={onImport}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: '下载模板' }));
    fireEvent.click(screen.getByRole('button', { name: /导出/ }));
    fireEvent.click(screen.getByRole('button', { name: /导入/ }));
    expect(vi.mocked(downloadFile).mock.calls).toEqual([
      ['/v3/t/template', {}, '购方抬头导入模板.xlsx'],
      ['/v3/t/export', { keyword: '西溪' }, '购方抬头.xlsx'],
    ]);
    expect(onImport).toHaveBeenCalledOnce();
  });
});

describe('KeywordSearch (a list’s keyword box)', () => {
  const search = (page: number, typed: string) => {
    const onKeyword = vi.fn();
    const onReload = vi.fn();
    const { unmount } = render(
      <KeywordSearch
        label="名称 / 税号"
        width={240}
        keyword="云栈"
        page={page}
        onKeyword={onKeyword}
        onReload={onReload}
      />,
    );
    const box = screen.getByRole('searchbox', { name: '名称 / 税号' });
    fireEvent.change(box, { target: { value: typed } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    unmount();
    return { onKeyword, onReload };
  };

  it('a new keyword goes back to page 1; the same one on page 1 asks again, trimmed', () => {
    const fresh = search(3, ' 西溪 ');
    expect(fresh.onKeyword).toHaveBeenCalledWith('西溪');
    expect(fresh.onReload).not.toHaveBeenCalled();
    const again = search(1, '云栈 ');
    expect(again.onReload).toHaveBeenCalledTimes(1);
    expect(again.onKeyword).toHaveBeenCalledWith('云栈');
    // on another page the same keyword goes back to page 1, which asks by itself
    const elsewhere = search(2, '云栈');
    expect(elsewhere.onReload).not.toHaveBeenCalled();
    expect(elsewhere.onKeyword).toHaveBeenCalledWith('云栈');
  });
});

describe('BatchDeleteBar', () => {
  it('shows nothing without a selection; asks to confirm 确定删除选中的N个…吗？ before deleting', async () => {
    const onConfirm = vi.fn();
    const { rerender } = render(<BatchDeleteBar selected={[]} noun="抬头" onConfirm={onConfirm} />);
    expect(screen.queryByText('批量删除')).toBeNull();
    rerender(<BatchDeleteBar selected={[4, 9]} noun="抬头" onConfirm={onConfirm} />);
    expect(screen.getByText('已选择 2 项')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '批量删除' }));
    expect(await screen.findByText('确定删除选中的2个抬头吗？')).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /^删\s*除$/ }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
