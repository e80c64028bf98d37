import type { ThemeConfig } from 'antd';

// WCAG 2.1 AA (issue 24 item 7): every text colour below reaches 4.5:1 on the backgrounds it is
// drawn on (white, the page's #f0f2f5, antd's tinted backgrounds such as #e6f4ff / #f6ffed /
// #fff1f0), and white text reaches 4.5:1 on every filled colour. antd's defaults do not: white on
// #1677ff is 4.10:1, #ff4d4f on white 3.27:1, rgba(0,0,0,0.45) on white 3.36:1 and the green tag
// text #389e0d on #f6ffed 3.37:1. The lite login page (components/lite/lite.module.css), the page
// tabs and the buyer's H5 page (antd-mobile variables) use the same values.

/** spec §2/§9: the active menu item is green; antd's green-8, so that its white text reads (5.59:1). */
export const MENU_ACTIVE_GREEN = '#237804';

/** Brand blue, one step darker than antd's #1677ff: 5.19:1 with white either way round. */
export const PRIMARY = '#1668dc';
const PRIMARY_HOVER = '#0958d9'; // 6.16:1 — hover darkens, so white text keeps its contrast
const PRIMARY_ACTIVE = '#003eb3';
/** Danger red: 5.57:1 on white, 5.10:1 on antd's error background #fff1f0. */
export const DANGER = '#cf1322';
/** Secondary and description text (antd: 0.45 alpha): 5.74:1 on white, 5.53:1 on #f0f2f5. */
const TEXT_TERTIARY = 'rgba(0, 0, 0, 0.6)';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY,
    colorPrimaryHover: PRIMARY_HOVER,
    colorPrimaryActive: PRIMARY_ACTIVE,
    colorInfo: PRIMARY,
    colorLink: PRIMARY,
    colorLinkHover: PRIMARY_HOVER,
    colorLinkActive: PRIMARY_ACTIVE,
    colorError: DANGER,
    colorErrorHover: '#a8071a',
    colorErrorActive: '#820014',
    colorSuccessText: '#237804',
    // warning text (Typography type="warning", Result): antd's gold-9 (6.79:1); icons keep the bright #faad14
    colorWarningText: '#874d00',
    colorTextTertiary: TEXT_TERTIARY,
    colorTextDescription: TEXT_TERTIARY,
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    // the full-screen Spin's white tip text sits on the mask: 0.45 black over white is #8c8c8c (3.36:1)
    colorBgMask: 'rgba(0, 0, 0, 0.55)',
    // tag texts (antd draws a preset tag's text in the colour's 7th shade on its 1st)
    green7: '#237804',
    gold7: '#874d00',
    orange7: '#ad4e00',
    cyan7: '#006d75',
    lime7: '#3f6600',
    yellow7: '#876800',
    volcano7: '#ad2102',
    borderRadius: 6,
  },
  components: {
    Menu: {
      darkItemSelectedBg: MENU_ACTIVE_GREEN,
      itemSelectedColor: MENU_ACTIVE_GREEN,
      itemSelectedBg: '#f6ffed',
    },
    Layout: { headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px', bodyBg: '#f0f2f5' },
  },
};
