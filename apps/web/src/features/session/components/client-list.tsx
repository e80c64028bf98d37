import type { ClientItem } from '@kaipiao/shared';
import { Empty, Spin, Tag } from 'antd';
import styles from './switch-store.module.css';

type Props = {
  clients?: ClientItem[];
  loading: boolean;
  activeId?: number;
  currentId?: number;
  onPick: (clientId: number) => void;
};

/** The businesses the user may act for. */
export function ClientList({ clients, loading, activeId, currentId, onPick }: Props) {
  if (!clients?.length) {
    return loading ? <Spin /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无企业" />;
  }
  return (
    <ul className={styles.list}>
      {clients.map((c) => (
        <li key={c.client_id}>
          <button
            type="button"
            className={c.client_id === activeId ? `${styles.option} ${styles.active}` : styles.option}
            aria-pressed={c.client_id === activeId}
            onClick={() => onPick(c.client_id)}
          >
            <span className={styles.optionName}>
              {c.name}
              {c.industry === 'hotel' && <Tag style={{ marginInlineStart: 8 }}>酒店</Tag>}
              {c.client_id === currentId && <Tag color="green">当前</Tag>}
            </span>
            <span className={styles.optionMeta}>{c.tax_code}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
