import { retryIn, TERMS } from '../glossary/terms.ts';
// Every user-facing validation/notice text, word for word from the spec where it gives one
// (spec §5, §8); the ones the spec gives in English are rendered once here in natural Chinese.
export const MSG = {
  // spec §5 phone-verification dialog
  MOBILE_REQUIRED: '必填，请输入正确的手机号',
  SMS_CODE_REQUIRED: '必填，请输入6位短信验证码',
  PICTURE_CODE: '请输入4位验证码',
  // spec §5 password change (English in the spec)
  PASSWORD_RULE: '必填，8-18位数字、字母、符号的组合',
  PASSWORD_MISMATCH: '两次输入的密码不一致，请重新输入',
  PASSWORD_CHANGE_HINT: '为了您的账号安全，密码有效期为90天，请定期修改密码',
  PASSWORD_WEAK_HINT: '您的密码过于简单，存在安全风险，请立即修改密码',
  PASSWORD_EXPIRED_HINT: '您的密码已超过90天未修改，请修改密码后继续使用',
  // login form
  ACCOUNT_REQUIRED: '请输入账号',
  PASSWORD_REQUIRED: '请输入密码',
  // spec §5 real-name
  REAL_NAME_SMS_REQUIRED: '必填，请输入短信验证码',
  // spec §8
  HTTP_ERROR_SUFFIX: '系统出错了，请稍候重试',
  NETWORK_ERROR: '网络开小差了，请稍候重试',
  TIMEOUT: '请求超时了，请稍候重试',
  ENTERPRISE_INCOMPLETE: '当前企业信息未完善，请联系管理员处理',
  CONTRACT_UNSIGNED: '您存在未签署的合同，无法正常使用服务，为保证您的权益，请您使用管理员权限账户立即签署！',
  CONTRACT_EXPIRED: '您的合同已过期，无法正常使用服务，是否重新签署？',
  SMS_SENT: '短信验证码已发送到您的手机，请注意查收',
  PASSWORD_CHANGED: '密码修改成功',
  SUBMITTED: '提交成功',
  LOGIN_OK: '登录成功',
  ERROR_DIALOG_TITLE: '提示',
  // spec §2 guide tip on the all-stores summary view
  SUMMARY_GUIDE: `当前为全部${TERMS.store}数据汇总，仅展示您有权限的所有${TERMS.taxCodeShort}的数据；如需开具发票，请切换到具体${TERMS.taxCodeShort}。`,
  SUMMARY_STORE_NAME: `全部${TERMS.store}数据汇总`,
  UNSUPPORTED_BROWSER: '您当前使用的浏览器版本过低，为保证使用体验，建议使用 Chrome 或 Firefox 浏览器',
  UNDER_CONSTRUCTION: '功能建设中',
  GRAY_ROUTE: '该功能暂未对您开放，请联系客服开通',
  GRAY_BOOKKEEPING: '您的记账服务已到期，批量开票和扫码开票已暂停，恢复服务后即可继续使用',
  NEED_PAY: '该功能为付费功能，请升级套餐后使用',
  NEW_CLIENT: '您当前尚未订购套餐，请先订购后再开票',
  CONTACT_US_TIP: '关注公众号，回复“0”转人工客服',
  SMS_RETRY: retryIn,
  GET_SMS_CODE: '获取短信验证码',
  // spec §2, §4 real-name dialog (English in the spec)
  REAL_NAME_TITLE_LOGIN: '登录',
  REAL_NAME_TITLE_AUTH: '认证',
  REAL_NAME_RETRY: retryIn,
  REAL_NAME_ALREADY_LOGGED_IN: '已登录，无需重复登录',
  REAL_NAME_APP: (authType: number) => (authType === 0 ? '税务APP' : '个人所得税APP'),
  REAL_NAME_QR_TIP: (app: string) => `请使用${app}扫描二维码进行实名认证`,
  REAL_NAME_QR_EXPIRED: '二维码已过期，点击刷新',
  REAL_NAME_APP_RELOGIN: '请重新登录APP后再进行操作',
  REAL_NAME_DONE: '实名认证成功',
  REAL_NAME_HINT: `当前${TERMS.taxCodeShort}未登录电子税务局，请手动获取验证码；获取二维码需要几分钟时间，请耐心等待。`,
} as const;
