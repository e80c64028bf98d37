import { ReloadOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useLayoutStore } from '../../../stores/layout-store.ts';

/** spec §2 refresh: re-mounts the current page (its tab stays). */
export function RefreshButton({ path }: { path: string }) {
  const reload = useLayoutStore((s) => s.reload);
  return (
    <Tooltip title="刷新">
      <Button type="text" aria-label="刷新" icon={<ReloadOutlined />} onClick={() => reload(path)} />
    </Tooltip>
  );
}
