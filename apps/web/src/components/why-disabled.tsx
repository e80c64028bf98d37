import { Tooltip } from 'antd';
import { type CSSProperties, cloneElement, type ReactElement, useId } from 'react';

/** read by screen readers, not shown */
const HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

type Props = {
  /** why the control cannot be used now; nothing when it can */
  reason: string | null | false | undefined;
  /** a disabled antd control (Button, Checkbox…) that takes `disabled` and `aria-describedby` */
  children: ReactElement<{ disabled?: boolean; 'aria-describedby'?: string }>;
  /** also say it in text beside the control (a form's main action), not only on hover and focus */
  beside?: boolean;
};

/**
 * A disabled control says why it is disabled (issue 24 item 2): the reason shows on hover (a disabled
 * button gets no pointer events: the wrapper takes them) and describes the control to screen
 * readers, which read disabled buttons; `beside` also writes it next to the control. With no reason the control is
 * returned as it is, enabled by its own `disabled` prop.
 */
export function WhyDisabled({ reason, children, beside }: Props) {
  const id = useId();
  if (!reason) return children;
  const control = cloneElement(children, { disabled: true, 'aria-describedby': id });
  return (
    <>
      <Tooltip title={reason}>
        <span data-why-disabled={reason} style={{ display: 'inline-block', cursor: 'not-allowed' }}>
          <span style={{ pointerEvents: 'none', display: 'inline-block' }}>{control}</span>
        </span>
      </Tooltip>
      <span id={id} style={beside ? { marginLeft: 8, color: 'rgba(0,0,0,0.6)' } : HIDDEN}>
        {reason}
      </span>
    </>
  );
}
