import { DownOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { openDialog } from '../../../components/dialog-host/index.ts';

const open = (path: string) => window.open(path, '_blank', 'noopener');

const items: MenuProps['items'] = [
  // feedback goes to customer service, the same channel as Contact Us
  { key: 'feedback', label: '意见反馈', onClick: () => openDialog('contact-us', {}) },
  { key: 'handbook', label: '操作手册', onClick: () => open('/help-center/handbook') },
  { key: 'install', label: '安装下载', onClick: () => open('/help-center/install-download') },
];

/** spec §2 Support menu; `compact` (a phone): the icon alone. */
export function HelpMenu({ compact = false }: { compact?: boolean }) {
  return (
    <Dropdown menu={{ items }} trigger={['hover', 'click']}>
      {compact ? (
        <Button type="text" aria-label="帮助支持" icon={<QuestionCircleOutlined />} />
      ) : (
        <Button type="text" icon={<QuestionCircleOutlined />}>
          帮助支持 <DownOutlined aria-hidden style={{ fontSize: 10 }} />
        </Button>
      )}
    </Dropdown>
  );
}
