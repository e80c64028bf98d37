import { TERMS } from '@kaipiao/shared/glossary/terms';
import { Typography } from 'antd';
import { HelpFrame } from './help-frame.tsx';

const { Title, Paragraph, Text } = Typography;

export default function HandbookPage() {
  return (
    <HelpFrame title="操作手册">
      <Title level={4}>一、登录</Title>
      <Paragraph>
        在登录页输入账号、密码和图形验证码后点击“登录”；看不清验证码时点击图片即可刷新。也可切换到“扫码登录”，
        使用手机扫描二维码并确认。为保障账号安全，在新设备登录时可能需要验证手机号：输入图形验证码和手机号，
        点击“获取短信验证码”，填写收到的 6 位验证码后确定。
      </Paragraph>
      <Title level={4}>二、选择企业和{TERMS.store}</Title>
      <Paragraph>
        登录后在“选择{TERMS.store}”页面选择要操作的企业和{TERMS.store}。选择“全部{TERMS.store}
        数据汇总”时，仅展示您有权限的所有{TERMS.taxCodeShort}的数据； 如需开具发票，请切换到具体
        {TERMS.taxCodeShort}。页面顶部的企业/{TERMS.store}名称可随时点击切换。
      </Paragraph>
      <Title level={4}>三、控制台</Title>
      <Paragraph>
        左侧菜单按您的权限显示可用功能，标有 <Text code>VIP</Text>{' '}
        的为付费或灰度功能；置灰功能会在页面上方给出说明。
        打开过的页面会以标签页形式保留在顶部，可随时切换或关闭；点击刷新按钮可重新加载当前页面。
      </Paragraph>
      <Title level={4}>四、账号安全</Title>
      <Paragraph>
        密码须为 8-18 位数字、字母、符号的组合，有效期 90 天。可在右上角用户菜单中点击“修改密码”，
        通过短信验证码完成修改。
      </Paragraph>
    </HelpFrame>
  );
}
