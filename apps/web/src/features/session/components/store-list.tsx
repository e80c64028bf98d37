import type { ClientItem } from '@kaipiao/shared';
import { SUMMARY_STORE_ID } from '@kaipiao/shared/constants/menu';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { MSG } from '@kaipiao/shared/validation/messages';
import { useQuery } from '@tanstack/react-query';
import { Spin, Tag } from 'antd';
import { useEffect, useRef } from 'react';
import { type SelectedStore, useSessionStore } from '../../../stores/session-store.ts';
import { listStores } from '../api/scope.ts';
import styles from './switch-store.module.css';

type Props = { business: ClientItem; autoPick: boolean; onChoose: (store: SelectedStore) => void };

/** A business's stores, after the all-stores summary option (-1, spec §3). */
export function StoreList({ business, autoPick, onChoose }: Props) {
  const current = useSessionStore((s) => s.store);
  const currentClient = useSessionStore((s) => s.business?.client_id);
  const stores = useQuery({
    queryKey: ['session', 'stores', business.client_id],
    queryFn: () => listStores(business.client_id),
  });
  const single = autoPick && stores.data?.length === 1 ? stores.data[0] : null;
  const picked = useRef(false);

  useEffect(() => {
    if (!single || picked.current) return;
    picked.current = true;
    onChoose({ client_store_id: single.client_store_id, name: single.name });
  }, [single, onChoose]);

  if (stores.isPending) return <Spin />;
  const options: (SelectedStore & { code?: string })[] = [
    { client_store_id: SUMMARY_STORE_ID, name: MSG.SUMMARY_STORE_NAME },
    ...(stores.data ?? []).map((s) => ({ client_store_id: s.client_store_id, name: s.name, code: s.code })),
  ];
  const isCurrent = (id: number) => currentClient === business.client_id && current?.client_store_id === id;

  return (
    <ul className={styles.list}>
      {options.map((o) => (
        <li key={o.client_store_id}>
          <button
            type="button"
            className={styles.option}
            onClick={() => onChoose({ client_store_id: o.client_store_id, name: o.name })}
          >
            <span className={styles.optionName}>
              {o.name}
              {isCurrent(o.client_store_id) && <Tag color="green">当前</Tag>}
            </span>
            <span className={styles.optionMeta}>
              {o.client_store_id === SUMMARY_STORE_ID ? `仅查看，开票请选择具体${TERMS.store}` : o.code}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
