import { MSG } from '@kaipiao/shared/validation/messages';
import { ErrorBlock, NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useCurrentRoute } from '../../layouts/use-current-route.ts';

/** Mobile pages that come in a later issue. */
export default function MobileUnderConstruction() {
  const route = useCurrentRoute();
  const navigate = useNavigate();
  return (
    <>
      <NavBar onBack={() => navigate(-1)}>{route?.title}</NavBar>
      <ErrorBlock status="empty" title={MSG.UNDER_CONSTRUCTION} description="" />
    </>
  );
}
