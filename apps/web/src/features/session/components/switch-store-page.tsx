import type { ClientItem } from '@kaipiao/shared';
import { TERMS } from '@kaipiao/shared/glossary/terms';
import { keepPreviousData, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Input, Select, Space, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isMobileUserAgent } from '../../../lib/device.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { safeRedirect } from '../../../lib/redirect.ts';
import { type SelectedStore, useSessionStore } from '../../../stores/session-store.ts';
import { useTabsStore } from '../../../stores/tabs-store.ts';
import { listClients, listOrgs, setCurrentOrg } from '../api/scope.ts';
import { ClientList } from './client-list.tsx';
import { StoreList } from './store-list.tsx';
import styles from './switch-store.module.css';

type Props = { extra?: ReactNode };

/** spec §2 /user/switch-store: org, business (searchable) and store, incl. the -1 summary. */
export function SwitchStorePage(props: Props) {
  return (
    <QueryClientProvider client={queryClient}>
      <SwitchStore {...props} />
    </QueryClientProvider>
  );
}

function SwitchStore({ extra }: Props) {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const client = useQueryClient();
  const current = useSessionStore((s) => s.business);
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<number | null>(current?.client_id ?? null);
  const orgs = useQuery({ queryKey: ['session', 'orgs'], queryFn: listOrgs });
  const clients = useQuery({
    queryKey: ['session', 'clients', keyword],
    queryFn: () => listClients(keyword),
    placeholderData: keepPreviousData,
  });
  const active = clients.data?.find((c) => c.client_id === picked) ?? clients.data?.[0];

  function choose(business: ClientItem, store: SelectedStore) {
    const { client_id, name, tax_code, org_id, industry } = business;
    if (current?.client_id !== client_id) useTabsStore.getState().clear();
    useSessionStore.getState().select({ client_id, name, tax_code, org_id, industry }, store);
    const redirect = safeRedirect(search.get('redirect'));
    navigate(redirect ?? (isMobileUserAgent() ? '/m-home/index' : '/'), { replace: true });
  }

  async function changeOrg(org_id: number) {
    await setCurrentOrg(org_id);
    setPicked(null);
    await client.invalidateQueries({ queryKey: ['session'] });
  }

  // after sign-in: one business with one store needs no choice
  const auto = search.get('auto') === '1' && !keyword && clients.data?.length === 1;
  const orgList = orgs.data ?? [];
  return (
    <div className={styles.page}>
      <Card
        className={styles.card}
        title={
          <Typography.Title level={4} style={{ margin: 0 }}>
            选择企业和{TERMS.store}
          </Typography.Title>
        }
        extra={
          <Space>
            {orgList.length > 1 && (
              <Select
                aria-label="集团"
                style={{ width: 220 }}
                value={orgList.find((o) => o.is_current)?.org_id}
                options={orgList.map((o) => ({ value: o.org_id, label: o.name }))}
                onChange={changeOrg}
              />
            )}
            {extra}
          </Space>
        }
      >
        <div className={styles.columns}>
          <section className={styles.column} aria-label="企业列表">
            <Input.Search
              placeholder={`搜索企业名称或${TERMS.taxCodeShort}`}
              allowClear
              onSearch={(value) => setKeyword(value.trim())}
              style={{ marginBottom: 12 }}
            />
            <ClientList
              clients={clients.data}
              loading={clients.isFetching}
              activeId={active?.client_id}
              currentId={current?.client_id}
              onPick={setPicked}
            />
          </section>
          <section className={styles.column} aria-label={`${TERMS.store}列表`}>
            {active ? (
              <StoreList business={active} autoPick={auto} onChoose={(store) => choose(active, store)} />
            ) : (
              <Typography.Text type="secondary">
                {clients.isFetching ? '' : '没有可选择的企业'}
              </Typography.Text>
            )}
          </section>
        </div>
      </Card>
    </div>
  );
}
