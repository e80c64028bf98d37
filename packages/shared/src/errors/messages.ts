import { AUTH_CODE, CODE, DEV_CODE, SESSION_CODE } from './codes.ts';

// One Chinese message per code; the server sends these, the client never branches on text.
export const ERROR_MESSAGES: Record<number, string> = {
  [CODE.UNAUTHORIZED]: '登录已失效，请重新登录',
  [CODE.FORBIDDEN]: '您没有该功能的权限',
  [CODE.SWITCH_STORE]: '请先切换到具体门店再操作',
  [CODE.VALIDATION]: '参数错误',
  [CODE.NOT_FOUND]: '数据不存在',
  [CODE.RATE_LIMITED]: '操作过于频繁，请稍后再试',
  [CODE.INTERNAL]: '系统出错了，请稍候重试',
  [AUTH_CODE.BAD_CAPTCHA]: '图形验证码错误或已失效，请重新输入',
  [AUTH_CODE.BAD_CREDENTIALS]: '账号或密码错误',
  [AUTH_CODE.ACCOUNT_LOCKED]: '密码错误次数过多，账号已锁定15分钟，请稍后再试',
  [AUTH_CODE.SMS_TOO_FREQUENT]: '短信发送过于频繁，请稍后再试',
  [AUTH_CODE.SMS_DAILY_CAP]: '今日短信发送次数已达上限，请明天再试',
  [AUTH_CODE.BAD_SMS_CODE]: '短信验证码错误或已失效',
  [AUTH_CODE.MFA_REQUIRED]: '为了您的账号安全，请先完成手机验证',
  [AUTH_CODE.MOBILE_MISMATCH]: '手机号与账号绑定的手机号不一致',
  [AUTH_CODE.PASSWORD_SAME_AS_OLD]: '新密码不能与旧密码相同',
  [AUTH_CODE.QR_EXPIRED]: '二维码已失效，请刷新后重新扫码',
  [AUTH_CODE.TICKET_INVALID]: '登录凭证无效或已过期，请重新登录',
  [AUTH_CODE.BAD_PASSWORD_CIPHER]: '密码加密信息已失效，请刷新页面后重试',
  [AUTH_CODE.PASSWORD_RULE]: '密码须为8-18位数字、字母、符号的组合',
  [AUTH_CODE.ACCOUNT_DISABLED]: '账号已停用，请联系管理员',
  [AUTH_CODE.SMS_SEND_FAILED]: '短信发送失败，请稍后重试',
  [AUTH_CODE.PASSWORD_MISMATCH]: '两次输入的密码不一致，请重新输入',
  [AUTH_CODE.WECOM_CODE_INVALID]: '企业微信授权已失效，请重新进入',
  [SESSION_CODE.ORG_NOT_PERMITTED]: '您不属于该集团',
  [SESSION_CODE.CLIENT_NOT_PERMITTED]: '您没有该企业的权限',
  [SESSION_CODE.STORE_NOT_PERMITTED]: '您没有该门店的权限',
  [SESSION_CODE.SUMMARY_READ_ONLY]: '全部门店数据汇总仅可查看，开票请切换到具体税号',
  [DEV_CODE.DEV_ONLY]: '生产环境不提供该接口',
};

export function messageFor(code: number): string {
  return ERROR_MESSAGES[code] ?? ERROR_MESSAGES[CODE.INTERNAL];
}
