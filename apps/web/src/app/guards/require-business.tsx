import { MSG } from '@kaipiao/shared/validation/messages';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../../components/lite/page-loading.tsx';
import { findClientByTaxCode } from '../../features/session/api/scope.ts';
import { useSessionStore } from '../../stores/session-store.ts';

// spec §4 guard: a token without a selected business goes to store switching; a tax code in the
// URL selects that business with the all-stores summary (-1).

const TAX_CODE_KEYS = ['taxCode', 'tax_code'] as const;

function TaxCodeSelection({ taxCode }: { taxCode: string }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const rest = new URLSearchParams(search);
    for (const key of TAX_CODE_KEYS) rest.delete(key);
    const query = rest.toString();
    const here = `${pathname}${query ? `?${query}` : ''}`;
    findClientByTaxCode(taxCode)
      .then((client) => {
        if (client) {
          const { client_id, name, tax_code, org_id, industry } = client;
          useSessionStore
            .getState()
            .select(
              { client_id, name, tax_code, org_id, industry },
              { client_store_id: -1, name: MSG.SUMMARY_STORE_NAME },
            );
        }
        navigate(here, { replace: true });
      })
      .catch(() => navigate(here, { replace: true }));
  }, [navigate, pathname, search, taxCode]);

  return <PageLoading />;
}

export function RequireBusiness() {
  const { pathname, search } = useLocation();
  const business = useSessionStore((s) => s.business);
  const params = new URLSearchParams(search);
  const taxCode = TAX_CODE_KEYS.map((k) => params.get(k)).find(Boolean);
  if (taxCode) return <TaxCodeSelection taxCode={taxCode} />;
  if (!business) {
    const redirect = pathname === '/' ? '' : `&redirect=${encodeURIComponent(`${pathname}${search}`)}`;
    return <Navigate to={`/user/switch-store?auto=1${redirect}`} replace />;
  }
  return <Outlet />;
}
