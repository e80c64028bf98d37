import { MSG } from '@kaipiao/shared/validation/messages';
import { Result } from 'antd';
import { useCurrentRoute } from '../layouts/use-current-route.ts';

/** Pages outside the console shell (print, campaign) that come in a later issue. */
export default function StandalonePlaceholder() {
  const route = useCurrentRoute();
  return <Result status="info" title={route?.title} subTitle={MSG.UNDER_CONSTRUCTION} />;
}
