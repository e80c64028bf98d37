import { MSG } from '@kaipiao/shared/validation/messages';
import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useCurrentRoute } from '../../layouts/use-current-route.ts';

/** User-area pages that come in a later issue (register, work-app register, contracts). */
export default function UserPlaceholder() {
  const route = useCurrentRoute();
  return (
    <Result
      status="info"
      title={route?.title}
      subTitle={MSG.UNDER_CONSTRUCTION}
      extra={
        <Link to="/user/login">
          <Button type="primary">返回登录</Button>
        </Link>
      }
    />
  );
}
