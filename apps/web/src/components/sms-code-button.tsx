import { SMS_RESEND_SECONDS } from '@kaipiao/shared/constants/menu';
import { MSG } from '@kaipiao/shared/validation/messages';
import { Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useCountdown } from '../hooks/use-countdown.ts';

type Props = {
  /** sends the code; resolves to the seconds to wait, rejects when sending failed */
  onSend: () => Promise<number | undefined>;
  size?: ButtonProps['size'];
};

/** spec §4: "获取短信验证码", then a 60-second "Ns后重试" countdown. */
export function SmsCodeButton({ onSend, size }: Props) {
  const { seconds, running, start } = useCountdown();
  const [sending, setSending] = useState(false);

  async function send() {
    setSending(true);
    try {
      const wait = await onSend();
      start(wait && wait > 0 ? wait : SMS_RESEND_SECONDS);
    } catch {
      // the caller reported the failure (and refreshed the captcha)
    } finally {
      setSending(false);
    }
  }

  return (
    <Button size={size} disabled={running} loading={sending} onClick={send} style={{ minWidth: 128 }}>
      {running ? MSG.SMS_RETRY(seconds) : MSG.GET_SMS_CODE}
    </Button>
  );
}
