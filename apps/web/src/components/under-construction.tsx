import { MSG } from '@kaipiao/shared/validation/messages';
import { Empty } from 'antd';

/** The plain state of a page whose feature is not built yet: no fake data. */
export function UnderConstruction({ description }: { description?: string }) {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={description ?? MSG.UNDER_CONSTRUCTION}
      style={{ padding: '48px 0' }}
    />
  );
}
