import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Typography } from 'antd';
import { HelpFrame } from './help-frame.tsx';

const { Title, Paragraph } = Typography;

const BROWSERS = [
  { name: 'Google Chrome', href: 'https://www.google.cn/chrome/' },
  { name: 'Mozilla Firefox', href: 'https://www.firefox.com.cn/' },
  { name: 'Microsoft Edge', href: 'https://www.microsoft.com/zh-cn/edge' },
];

export default function InstallDownloadPage() {
  return (
    <HelpFrame title="安装下载">
      <Title level={4}>浏览器</Title>
      <Paragraph>
        开票台在浏览器中使用，无需安装客户端。为保证使用体验，建议使用以下浏览器的最新版本：
      </Paragraph>
      <ul>
        {BROWSERS.map((b) => (
          <li key={b.name}>
            <a href={b.href} target="_blank" rel="noreferrer">
              {b.name}
            </a>
          </li>
        ))}
      </ul>
      <Title level={4}>{TERMS.taxControlDevice}</Title>
      <Paragraph>{TERMS.taxControlDevice}的驱动与接入说明将随设备管理功能一同提供。</Paragraph>
    </HelpFrame>
  );
}
