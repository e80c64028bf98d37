import { MSG } from '@kaipiao/shared/validation/messages';
import { Alert } from 'antd';
import { isSupportedBrowser } from '../../../lib/device.ts';

const supported = isSupportedBrowser();

/** spec §2 unsupported-browser hint. */
export function BrowserHint() {
  if (supported) return null;
  return <Alert type="warning" banner closable message={MSG.UNSUPPORTED_BROWSER} />;
}
