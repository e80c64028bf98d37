import type { ThemeConfig } from 'antd';

/** spec §2/§9: the active menu item is green. */
export const MENU_ACTIVE_GREEN = '#52c41a';

export const theme: ThemeConfig = {
  token: { colorPrimary: '#1677ff', borderRadius: 6 },
  components: {
    Menu: {
      darkItemSelectedBg: MENU_ACTIVE_GREEN,
      itemSelectedColor: MENU_ACTIVE_GREEN,
      itemSelectedBg: '#f6ffed',
    },
    Layout: { headerBg: '#ffffff', headerHeight: 56, headerPadding: '0 16px', bodyBg: '#f0f2f5' },
  },
};
