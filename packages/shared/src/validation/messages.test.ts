import { describe, expect, it } from 'vitest';
import { MSG } from './messages.ts';

// The spec's Chinese messages are exact (spec §5, §8): pin them so an edit is deliberate.
describe('MSG', () => {
  it('keeps the spec wording word for word', () => {
    expect(MSG.MOBILE_REQUIRED).toBe('必填，请输入正确的手机号');
    expect(MSG.SMS_CODE_REQUIRED).toBe('必填，请输入6位短信验证码');
    expect(MSG.PICTURE_CODE).toBe('请输入4位验证码');
    expect(MSG.HTTP_ERROR_SUFFIX).toBe('系统出错了，请稍候重试');
    expect(MSG.NETWORK_ERROR).toBe('网络开小差了，请稍候重试');
    expect(MSG.TIMEOUT).toBe('请求超时了，请稍候重试');
    expect(MSG.ENTERPRISE_INCOMPLETE).toBe('当前企业信息未完善，请联系管理员处理');
    expect(MSG.CONTRACT_UNSIGNED).toBe(
      '您存在未签署的合同，无法正常使用服务，为保证您的权益，请您使用管理员权限账户立即签署！',
    );
    expect(MSG.CONTRACT_EXPIRED).toBe('您的合同已过期，无法正常使用服务，是否重新签署？');
    expect(MSG.SMS_SENT).toBe('短信验证码已发送到您的手机，请注意查收');
    expect(MSG.PASSWORD_CHANGED).toBe('密码修改成功');
    expect(MSG.ERROR_DIALOG_TITLE).toBe('提示');
  });
});
